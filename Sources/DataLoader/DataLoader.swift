// The DataLoader module; see ../shared/DESIGN.md for its role.
