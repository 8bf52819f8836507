// Executable definitions (spec §2.3–§2.10): operations, selection sets, fields,
// arguments, fragments and variable definitions.

extension Parser {
    // MARK: - Operations (§2.3)

    /// ```
    /// OperationDefinition :
    ///   - Description? OperationType Name? VariablesDefinition? Directives? SelectionSet
    ///   - SelectionSet
    /// ```
    mutating func parseOperationDefinition() throws(SyntaxError) -> OperationDefinition {
        let start = lexer.token
        if peek(.braceL) {
            let selectionSet = try parseSelectionSet()
            return OperationDefinition(operation: .query, selectionSet: selectionSet, loc: loc(from: start))
        }
        let description = try parseDescription()
        let operation = try parseOperationType()
        let name = peek(.name) ? try parseName() : nil
        let variableDefinitions = try parseVariableDefinitions()
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        return OperationDefinition(
            description: description, operation: operation, name: name, variableDefinitions: variableDefinitions,
            directives: directives, selectionSet: selectionSet, loc: loc(from: start))
    }

    /// ```
    /// OperationType : one of query mutation subscription
    /// ```
    mutating func parseOperationType() throws(SyntaxError) -> OperationType {
        let token = try expectToken(.name)
        if lexer.isKeyword(token, "query") { return .query }
        if lexer.isKeyword(token, "mutation") { return .mutation }
        if lexer.isKeyword(token, "subscription") { return .subscription }
        throw unexpected(token)
    }

    // MARK: - Variables (§2.10)

    /// ```
    /// VariablesDefinition : ( VariableDefinition+ )
    /// ```
    mutating func parseVariableDefinitions() throws(SyntaxError) -> [VariableDefinition] {
        try optionalMany(.parenL, { p throws(SyntaxError) in try p.parseVariableDefinition() }, .parenR)
    }

    /// ```
    /// VariableDefinition : Description? Variable : Type DefaultValue? Directives[Const]?
    /// DefaultValue : = Value[Const]
    /// ```
    mutating func parseVariableDefinition() throws(SyntaxError) -> VariableDefinition {
        let start = lexer.token
        let description = try parseDescription()
        let variable = try parseVariable()
        try expectToken(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptionalToken(.equals) ? try parseValueLiteral(isConst: true) : nil
        let directives = try parseDirectives(isConst: true)
        return VariableDefinition(
            description: description, variable: variable, type: type, defaultValue: defaultValue,
            directives: directives, loc: loc(from: start))
    }

    /// ```
    /// Variable : $ Name
    /// ```
    mutating func parseVariable() throws(SyntaxError) -> Variable {
        let start = lexer.token
        try expectToken(.dollar)
        let name = try parseName()
        return Variable(name: name, loc: loc(from: start))
    }

    // MARK: - Selections (§2.4–§2.6)

    /// ```
    /// SelectionSet : { Selection+ }
    /// ```
    mutating func parseSelectionSet() throws(SyntaxError) -> SelectionSet {
        let start = lexer.token
        try enterNesting(at: start)
        try expectToken(.braceL)
        // `many(.braceL, parseSelection, .braceR)` written out: this is the hottest list, and
        // starting with room for a few selections saves the first regrowths of the array.
        var selections: [Selection] = []
        selections.reserveCapacity(4)
        repeat {
            if peek(.spread) {
                selections.append(try parseFragment())
            } else {
                selections.append(.field(try parseField()))
            }
        } while try !expectOptionalToken(.braceR)
        leaveNesting()
        return SelectionSet(selections: selections, loc: loc(from: start))
    }

    /// ```
    /// Selection :
    ///   - Field
    ///   - FragmentSpread
    ///   - InlineFragment
    /// ```
    mutating func parseSelection() throws(SyntaxError) -> Selection {
        peek(.spread) ? try parseFragment() : .field(try parseField())
    }

    /// ```
    /// Field : Alias? Name Arguments? Directives? SelectionSet?
    /// Alias : Name :
    /// ```
    mutating func parseField() throws(SyntaxError) -> Field {
        let start = lexer.token
        let nameOrAlias = try parseName()
        let alias: Name?
        let name: Name
        if try expectOptionalToken(.colon) {
            alias = nameOrAlias
            name = try parseName()
        } else {
            alias = nil
            name = nameOrAlias
        }
        let arguments = try parseArguments(isConst: false)
        let directives = try parseDirectives(isConst: false)
        let selectionSet = peek(.braceL) ? try parseSelectionSet() : nil
        return Field(
            alias: alias, name: name, arguments: arguments, directives: directives, selectionSet: selectionSet,
            loc: loc(from: start))
    }

    /// ```
    /// Arguments[Const] : ( Argument[?Const]+ )
    /// ```
    mutating func parseArguments(isConst: Bool) throws(SyntaxError) -> [Argument] {
        try optionalMany(
            .parenL, { p throws(SyntaxError) in try p.parseArgument(isConst: isConst) }, .parenR, capacity: 4)
    }

    /// ```
    /// Argument[Const] : Name : Value[?Const]
    /// ```
    mutating func parseArgument(isConst: Bool) throws(SyntaxError) -> Argument {
        let start = lexer.token
        let name = try parseName()
        try expectToken(.colon)
        let value = try parseValueLiteral(isConst: isConst)
        return Argument(name: name, value: value, loc: loc(from: start))
    }

    // MARK: - Fragments (§2.8)

    /// A fragment spread or an inline fragment, told apart after the `...`.
    ///
    /// ```
    /// FragmentSpread : ... FragmentName Directives?
    /// InlineFragment : ... TypeCondition? Directives? SelectionSet
    /// ```
    mutating func parseFragment() throws(SyntaxError) -> Selection {
        let start = lexer.token
        try expectToken(.spread)
        let hasTypeCondition = try expectOptionalKeyword("on")
        if !hasTypeCondition && peek(.name) {
            let name = try parseFragmentName()
            let directives = try parseDirectives(isConst: false)
            return .fragmentSpread(FragmentSpread(name: name, directives: directives, loc: loc(from: start)))
        }
        let typeCondition = hasTypeCondition ? try parseNamedType() : nil
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        return .inlineFragment(
            InlineFragment(
                typeCondition: typeCondition, directives: directives, selectionSet: selectionSet, loc: loc(from: start))
        )
    }

    /// ```
    /// FragmentDefinition : Description? fragment FragmentName TypeCondition Directives? SelectionSet
    /// TypeCondition : on NamedType
    /// ```
    mutating func parseFragmentDefinition() throws(SyntaxError) -> FragmentDefinition {
        let start = lexer.token
        let description = try parseDescription()
        try expectKeyword("fragment")
        let name = try parseFragmentName()
        try expectKeyword("on")
        let typeCondition = try parseNamedType()
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        return FragmentDefinition(
            description: description, name: name, typeCondition: typeCondition, directives: directives,
            selectionSet: selectionSet, loc: loc(from: start))
    }

    /// ```
    /// FragmentName : Name but not on
    /// ```
    mutating func parseFragmentName() throws(SyntaxError) -> Name {
        if lexer.isKeyword(lexer.token, "on") {
            throw unexpected()
        }
        return try parseName()
    }
}
