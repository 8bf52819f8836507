// Default values of arguments and input fields, as graphql-js holds them: the SDL literal is
// coerced to the input type when the schema is built (`valueFromAST`), and printed back as a
// literal from the coerced value (`astFromValue`). So `printSchema` and the introspection
// field `__InputValue.defaultValue` show `limit: Float = 1` for `limit: Float = 1.0`, input
// object fields in the type's order with their own defaults filled in, and nothing at all
// for a default that does not fit its type.

/// A default value after input coercion (graphql-js `valueFromAST` without variables).
indirect enum CoercedValue: Equatable, Sendable {
    case null
    /// An integer, as canonical decimal text (custom scalars accept any size, as graphql-core).
    case int(String)
    case float(Double)
    case string(String)
    case boolean(Bool)
    /// An enum value's name.
    case enumValue(String)
    case list([CoercedValue])
    /// Input object fields in the input type's field order.
    case object([CoercedField])
}

/// One field of a coerced input object.
struct CoercedField: Equatable, Sendable {
    var name: String
    var value: CoercedValue
}

/// Coerces literals (no variables) to input types of one schema, memoising the coerced
/// defaults of input object fields, which coercion fills in for absent fields.
struct DefaultValueCoercer {
    let schema: Schema
    private var fieldDefaults: [String: CoercedValue?] = [:]
    private var inProgress: Set<String> = []

    init(schema: Schema) { self.schema = schema }

    /// `valueFromAST(literal, type)`: the coerced value, or nil when the literal does not fit
    /// the type ("Undefined" in graphql-js), e.g. `"ten"` for `Int`.
    mutating func coerce(_ literal: Value, to type: TypeReference) -> CoercedValue? {
        switch type {
        case .nonNull(let inner):
            if case .null = literal { return nil }
            return coerce(literal, to: inner)
        case .list(let item):
            if case .null = literal { return .null }
            if case .list(let list) = literal {
                var values: [CoercedValue] = []
                values.reserveCapacity(list.values.count)
                for element in list.values {
                    guard let value = coerce(element, to: item) else { return nil }
                    values.append(value)
                }
                return .list(values)
            }
            return coerce(literal, to: item).map { .list([$0]) }
        case .named(let name):
            if case .null = literal { return .null }
            switch schema.types[name] {
            case .inputObject(let input): return coerceInputObject(literal, input)
            case .enumType(let e):
                guard case .enumValue(let v) = literal, e.value(v.value) != nil else { return nil }
                return .enumValue(v.value)
            case .scalar(let scalar): return coerceScalar(literal, scalar)
            default: return nil
            }
        }
    }

    private mutating func coerceInputObject(_ literal: Value, _ input: InputObjectType) -> CoercedValue? {
        guard case .object(let object) = literal else { return nil }
        var given: [String: Value] = [:]
        for field in object.fields where given[field.name.value] == nil { given[field.name.value] = field.value }
        var fields: [CoercedField] = []
        for field in input.fields {
            if let value = given[field.name] {
                guard let coerced = coerce(value, to: field.type) else { return nil }
                fields.append(CoercedField(name: field.name, value: coerced))
            } else if let fallback = defaultOf(field, in: input.name) {
                fields.append(CoercedField(name: field.name, value: fallback))
            } else if field.type.isNonNull {
                return nil
            }
        }
        if input.isOneOf {
            guard fields.count == 1, fields[0].value != .null else { return nil }
        }
        return .object(fields)
    }

    /// The coerced default of an input object field; nil when it has none, or an invalid one,
    /// or one that needs itself to be computed (`input A { a: A = {} }`).
    mutating func defaultOf(_ field: InputValueModel, in typeName: String) -> CoercedValue? {
        guard let literal = field.defaultValue else { return nil }
        let key = typeName + "." + field.name
        if let known = fieldDefaults[key] { return known }
        guard inProgress.insert(key).inserted else { return nil }
        let value = coerce(literal, to: field.type)
        inProgress.remove(key)
        fieldDefaults[key] = .some(value)
        return value
    }

    /// The built-in scalars' literal coercion (§3.5), and graphql-js's for custom scalars:
    /// any literal, taken as the plain value it spells.
    private func coerceScalar(_ literal: Value, _ scalar: ScalarType) -> CoercedValue? {
        switch scalar.name {
        case "Int":
            guard case .int(let i) = literal, let n = Int(i.value), n >= -2_147_483_648, n <= 2_147_483_647 else {
                return nil
            }
            return .int(String(n))
        case "Float":
            switch literal {
            case .int(let i): return Double(i.value).map(CoercedValue.float)
            case .float(let f): return Double(f.value).map(CoercedValue.float)
            default: return nil
            }
        case "String":
            guard case .string(let s) = literal else { return nil }
            return .string(s.value)
        case "Boolean":
            guard case .boolean(let b) = literal else { return nil }
            return .boolean(b.value)
        case "ID":
            switch literal {
            case .string(let s): return .string(s.value)
            case .int(let i): return .string(i.value)
            default: return nil
            }
        default:
            return untyped(literal)
        }
    }

    /// graphql-js `valueFromASTUntyped`: the value a literal spells, enum names as strings.
    private func untyped(_ literal: Value) -> CoercedValue {
        switch literal {
        case .null, .variable: return .null
        case .int(let i): return .int(canonicalInteger(i.value))
        case .float(let f): return .float(Double(f.value) ?? .nan)
        case .string(let s): return .string(s.value)
        case .boolean(let b): return .boolean(b.value)
        case .enumValue(let e): return .string(e.value)
        case .list(let l): return .list(l.values.map(untyped))
        case .object(let o):
            var fields: [CoercedField] = []
            for field in o.fields {
                let value = untyped(field.value)
                if let i = fields.firstIndex(where: { $0.name == field.name.value }) {
                    fields[i].value = value
                } else {
                    fields.append(CoercedField(name: field.name.value, value: value))
                }
            }
            return .object(fields)
        }
    }

    /// An IntValue's digits as a number prints them: `-0` is `0`.
    private func canonicalInteger(_ text: String) -> String {
        text.allSatisfy { $0 == "-" || $0 == "0" } ? "0" : text
    }
}

// MARK: - Back to a literal

extension CoercedValue {
    /// graphql-js `astFromValue(value, type)`: the literal that stands for this value of
    /// `type`; nil when there is none (null for a non-null type).
    func literal(for type: TypeReference, in schema: Schema) -> Value? {
        switch type {
        case .nonNull(let inner):
            let result = literal(for: inner, in: schema)
            if case .null = result { return nil }
            return result
        case .list(let item):
            if case .null = self { return .null(NullValue()) }
            if case .list(let values) = self {
                return .list(ListValue(values: values.compactMap { $0.literal(for: item, in: schema) }))
            }
            return literal(for: item, in: schema)
        case .named(let name):
            if case .null = self { return .null(NullValue()) }
            switch schema.types[name] {
            case .inputObject(let input):
                guard case .object(let fields) = self else { return nil }
                var objectFields: [ObjectField] = []
                for field in input.fields {
                    guard let given = fields.first(where: { $0.name == field.name }),
                        let value = given.value.literal(for: field.type, in: schema)
                    else { continue }
                    objectFields.append(ObjectField(name: Name(field.name), value: value))
                }
                return .object(ObjectValue(fields: objectFields))
            case .enumType:
                guard case .enumValue(let v) = self else { return nil }
                return .enumValue(EnumValue(value: v))
            case .scalar(let scalar):
                return scalarLiteral(isID: scalar.name == "ID")
            default:
                return nil
            }
        }
    }

    /// A leaf value as graphql-core serializes it into a literal: numbers by Python's float
    /// repr with a trailing `.0` dropped, ID strings that look like integers as IntValue.
    private func scalarLiteral(isID: Bool) -> Value? {
        switch self {
        case .null: return .null(NullValue())
        case .int(let text): return .int(IntValue(value: text))
        case .float(let d):
            guard d.isFinite else { return nil }
            var text = pythonFloatRepr(d)
            if text.hasSuffix(".0") { text.removeLast(2) }
            return .float(FloatValue(value: text))
        case .string(let s):
            if isID && isIntegerText(s) { return .int(IntValue(value: s)) }
            return .string(StringValue(value: s))
        case .boolean(let b): return .boolean(BooleanValue(value: b))
        case .enumValue(let e): return .string(StringValue(value: e))
        case .list(let values):
            // graphql-core cannot print these (custom scalar list defaults); we print them plainly.
            return .list(ListValue(values: values.compactMap { $0.scalarLiteral(isID: false) }))
        case .object(let fields):
            return .object(
                ObjectValue(
                    fields: fields.compactMap { f in
                        f.value.scalarLiteral(isID: false).map { ObjectField(name: Name(f.name), value: $0) }
                    }))
        }
    }
}

/// `-?(0|[1-9][0-9]*)`: the strings graphql-js prints as an IntValue for an ID.
private func isIntegerText(_ s: String) -> Bool {
    var digits = Substring(s)
    if digits.first == "-" { digits = digits.dropFirst() }
    guard let first = digits.first, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return false }
    return first != "0" || digits.count == 1
}

/// Python's `repr(float)`: shortest round-trip digits, positional when the decimal exponent is
/// in -4 ..< 16 (with `.0` for integers), else `d.ddde±XX`.
func pythonFloatRepr(_ d: Double) -> String {
    if d == 0 { return d.sign == .minus ? "-0.0" : "0.0" }
    // Swift's description also gives the shortest round-trip digits; only the layout differs.
    var text = "\(abs(d))"
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
        exponent = Int(text[text.index(after: e)...]) ?? 0
        text = String(text[..<e])
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let integerPart = String(parts[0])
    let fractionPart = parts.count > 1 ? String(parts[1]) : ""
    var digits = integerPart + fractionPart
    var pointPosition = integerPart.count + exponent  // digits[0..<pointPosition] before the point
    while digits.first == "0" && digits.count > 1 {
        digits.removeFirst()
        pointPosition -= 1
    }
    while digits.last == "0" && digits.count > 1 { digits.removeLast() }
    let sign = d < 0 ? "-" : ""
    let scientificExponent = pointPosition - 1
    if scientificExponent < -4 || scientificExponent >= 16 {
        var mantissa = String(digits.first ?? "0")
        if digits.count > 1 { mantissa += "." + digits.dropFirst() }
        let expSign = scientificExponent < 0 ? "-" : "+"
        let expDigits = String(abs(scientificExponent))
        return sign + mantissa + "e" + expSign + (expDigits.count < 2 ? "0" + expDigits : expDigits)
    }
    if pointPosition <= 0 {
        return sign + "0." + String(repeating: "0", count: -pointPosition) + digits
    }
    if pointPosition >= digits.count {
        return sign + digits + String(repeating: "0", count: pointPosition - digits.count) + ".0"
    }
    let index = digits.index(digits.startIndex, offsetBy: pointPosition)
    return sign + digits[..<index] + "." + digits[index...]
}

extension Schema {
    /// The default value of an argument or input field as graphql-js shows it in
    /// `printSchema` and in introspection's `__InputValue.defaultValue` (print the result with
    /// `print(_ value:)`): the SDL literal coerced to `value.type` and turned back into a
    /// literal (`astFromValue`), e.g. `1` for `Float = 1.0`, input object fields in the type's
    /// order with their own defaults filled in.
    ///
    /// - Returns: nil when there is no default, or when it does not fit the type.
    public func defaultValueLiteral(of value: InputValueModel) -> Value? {
        guard let literal = value.defaultValue else { return nil }
        var coercer = DefaultValueCoercer(schema: self)
        return coercer.coerce(literal, to: value.type)?.literal(for: value.type, in: self)
    }
}
