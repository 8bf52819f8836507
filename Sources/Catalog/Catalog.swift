// The Catalog module; see ../shared/DESIGN.md for its role.
