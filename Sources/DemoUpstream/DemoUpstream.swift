// The DemoUpstream module; see ../shared/DESIGN.md for its role.
