// The HTTPServer module; see ../shared/DESIGN.md for its role.
