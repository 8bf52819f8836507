// Schema validation of `implements` (§3.6 "Objects" rule 4, §3.7 "Interfaces" rule 3):
// IsValidImplementation and IsValidImplementationFieldType.

extension SchemaValidationContext {
    /// Checks the interfaces `typeName` (an object or interface) declares.
    mutating func validateInterfaces(_ typeName: String, _ interfaces: [String], isInterface: Bool) {
        var seen: Set<String> = []
        for interface in interfaces {
            guard isInterfaceType(interface) else {
                if schema.types[interface] != nil {
                    report(
                        "Type \(typeName) must only implement Interface types, it cannot implement \(interface).",
                        nodes.implementsLocations(typeName, interface))
                }
                continue
            }
            if isInterface && interface == typeName {
                report(
                    "Type \(typeName) cannot implement itself because it would create a circular reference.",
                    nodes.implementsLocations(typeName, interface))
            }
            guard seen.insert(interface).inserted else {
                report(
                    "Type \(typeName) can only implement \(interface) once.",
                    nodes.implementsLocations(typeName, interface))
                continue
            }
            validateImplementsAncestors(typeName, interfaces, interface)
            validateImplementsInterface(typeName, interface)
        }
    }

    /// Every interface the implemented interface implements must be implemented too.
    private mutating func validateImplementsAncestors(_ typeName: String, _ interfaces: [String], _ interface: String) {
        guard case .interface(let iface) = schema.types[interface] else { return }
        for transitive in iface.interfaces where !interfaces.contains(transitive) {
            let message =
                transitive == typeName
                ? "Type \(typeName) cannot implement \(interface) because it would create a circular reference."
                : "Type \(typeName) must implement \(transitive) because it is implemented by \(interface)."
            report(
                message,
                nodes.implementsLocations(interface, transitive) + nodes.implementsLocations(typeName, interface))
        }
    }

    /// The type provides every field of the interface with a compatible type and arguments.
    private mutating func validateImplementsInterface(_ typeName: String, _ interface: String) {
        guard let type = schema.types[typeName], case .interface(let iface) = schema.types[interface] else { return }
        for interfaceField in iface.fields {
            guard let typeField = type.field(interfaceField.name) else {
                report(
                    "Interface field \(interface).\(interfaceField.name) expected but \(typeName) does not provide it.",
                    [interfaceField.loc] + nodes.typeLocations(typeName))
                continue
            }
            let fieldName = interfaceField.name
            if !isTypeSubType(typeField.type, of: interfaceField.type) {
                report(
                    "Interface field \(interface).\(fieldName) expects type \(interfaceField.type) but \(typeName).\(fieldName) is type \(typeField.type).",
                    [nodes.field(interface, fieldName)?.type.loc, nodes.field(typeName, fieldName)?.type.loc])
            }
            for interfaceArgument in interfaceField.arguments {
                let argumentName = interfaceArgument.name
                guard let typeArgument = typeField.argument(argumentName) else {
                    report(
                        "Interface field argument \(interface).\(fieldName)(\(argumentName):) expected but \(typeName).\(fieldName) does not provide it.",
                        [interfaceArgument.loc, typeField.loc])
                    continue
                }
                if interfaceArgument.type != typeArgument.type {
                    report(
                        "Interface field argument \(interface).\(fieldName)(\(argumentName):) expects type \(interfaceArgument.type) but \(typeName).\(fieldName)(\(argumentName):) is type \(typeArgument.type).",
                        [
                            nodes.argument(interface, fieldName, argumentName)?.type.loc,
                            nodes.argument(typeName, fieldName, argumentName)?.type.loc,
                        ])
                }
            }
            for typeArgument in typeField.arguments
            where interfaceField.argument(typeArgument.name) == nil && isRequired(typeArgument) {
                report(
                    "Object field \(typeName).\(fieldName) includes required argument \(typeArgument.name) that is missing from the Interface field \(interface).\(fieldName).",
                    [typeArgument.loc, interfaceField.loc])
            }
        }
    }

    /// §3.6.2 IsValidImplementationFieldType (graphql-js `isTypeSubTypeOf`): covariant field types.
    func isTypeSubType(_ sub: TypeReference, of sup: TypeReference) -> Bool {
        if sub == sup { return true }
        switch (sub, sup) {
        case (.nonNull(let a), .nonNull(let b)): return isTypeSubType(a, of: b)
        case (_, .nonNull): return false
        case (.nonNull(let a), _): return isTypeSubType(a, of: sup)
        case (.list(let a), .list(let b)): return isTypeSubType(a, of: b)
        case (_, .list), (.list, _): return false
        case (.named(let a), .named(let b)):
            guard schema.types[b]?.isAbstractType == true else { return false }
            switch schema.types[a] {
            case .object: return schema.possibleTypes(of: b).contains(a)
            case .interface: return (schema.interfaceImplementations[b] ?? []).contains(a)
            default: return false
            }
        }
    }
}
