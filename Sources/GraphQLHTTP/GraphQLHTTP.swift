// The GraphQLHTTP module; see ../shared/DESIGN.md for its role.
