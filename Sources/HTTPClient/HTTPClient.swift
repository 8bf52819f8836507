// The HTTPClient module; see ../shared/DESIGN.md for its role.
