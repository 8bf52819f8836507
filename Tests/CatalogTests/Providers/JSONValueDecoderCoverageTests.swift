import Foundation
import GraphQL
import Testing

@testable import Catalog

/// `JSONValueDecoder` through every container method a `Decodable` can call, which the wire
/// models (all synthesized) leave out: each integer width and its overflow, `Float`, nested
/// keyed and unkeyed containers, super decoders, nulls and optionals, the end of an unkeyed
/// container; exact values, and each error's kind, coding path and description.
@Suite struct JSONValueDecoderCoverageTests {
    /// `T` from JSON text, or its error as `kind(type) at path: description`.
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) -> Result<T, Failure> {
        do {
            return .success(try JSONValueDecoder.decode(T.self, from: JSONReader.parse(json)))
        } catch let error as DecodingError {
            return .failure(Failure(error))
        } catch {
            return .failure(Failure(text: "\(error)"))
        }
    }

    struct Failure: Error, Equatable, CustomStringConvertible {
        var text: String
        init(text: String) { self.text = text }
        init(_ error: DecodingError) {
            func path(_ context: DecodingError.Context) -> String {
                context.codingPath.map(\.stringValue).joined(separator: ".")
            }
            switch error {
            case .typeMismatch(let type, let context):
                text = "typeMismatch(\(type)) at \(path(context)): \(context.debugDescription)"
            case .valueNotFound(let type, let context):
                text = "valueNotFound(\(type)) at \(path(context)): \(context.debugDescription)"
            case .keyNotFound(let key, let context):
                text = "keyNotFound(\(key.stringValue)) at \(path(context)): \(context.debugDescription)"
            case .dataCorrupted(let context):
                text = "dataCorrupted at \(path(context)): \(context.debugDescription)"
            @unknown default:
                text = "\(error)"
            }
        }
        var description: String { text }
    }

    static func error<T: Decodable>(_ type: T.Type, _ json: String) -> String {
        switch decode(type, json) {
        case .success(let value): "decoded \(value)"
        case .failure(let failure): failure.text
        }
    }

    /// Every fixed-width integer and `Float` by key, as synthesized `Decodable` asks for them.
    struct Widths: Decodable, Equatable {
        var i: Int
        var i8: Int8
        var i16: Int16
        var i32: Int32
        var i64: Int64
        var u: UInt
        var u8: UInt8
        var u16: UInt16
        var u32: UInt32
        var u64: UInt64
        var f: Float
    }

    static let widths = [
        ("i", "-9223372036854775808"), ("i8", "-128"), ("i16", "32767"), ("i32", "-2147483648"),
        ("i64", "9223372036854775807"), ("u", "0"), ("u8", "255"), ("u16", "65535"), ("u32", "4294967295"),
        ("u64", "1e19"), ("f", "0.1"),
    ]

    static func widthsJSON(replacing key: String? = nil, with value: String = "") -> String {
        "{" + widths.map { "\"\($0.0)\": \($0.0 == key ? value : $0.1)" }.joined(separator: ", ") + "}"
    }

    @Test func everyIntegerWidthAtItsLimitsByKey() throws {
        let decoded = try Self.decode(Widths.self, Self.widthsJSON()).get()
        #expect(
            decoded
                == Widths(
                    i: .min, i8: .min, i16: .max, i32: .min, i64: .max, u: 0, u8: .max, u16: .max, u32: .max,
                    u64: 10_000_000_000_000_000_000, f: 0.1))
        // Integral doubles are integers; Float takes integers too.
        let integral = Self.widthsJSON(replacing: "i8", with: "-1.0").replacingOccurrences(of: "0.1", with: "3")
        #expect(try Self.decode(Widths.self, integral).get().i8 == -1)
        #expect(try Self.decode(Widths.self, integral).get().f == 3)
    }

    @Test func eachWidthOverflowsWithItsPathAndNumber() {
        let overflows = [
            ("i8", "128", "128", "Int8"), ("i16", "-32769", "-32769", "Int16"),
            ("i32", "2147483648", "2147483648", "Int32"),
            ("i64", "1e19", "1e+19", "Int64"), ("u", "-1", "-1", "UInt"), ("u8", "256", "256", "UInt8"),
            ("u16", "65536", "65536", "UInt16"), ("u32", "4294967296", "4294967296", "UInt32"),
            ("u64", "-1", "-1", "UInt64"), ("i", "0.5", "0.5", "Int"), ("u8", "2.5", "2.5", "UInt8"),
        ]
        for (key, value, printed, type) in overflows {
            #expect(
                Self.error(Widths.self, Self.widthsJSON(replacing: key, with: value))
                    == "dataCorrupted at \(key): Parsed JSON number <\(printed)> does not fit in \(type).",
                "\(key): \(value)")
        }
        #expect(
            Self.error(Widths.self, Self.widthsJSON(replacing: "f", with: #""0.1""#))
                == "typeMismatch(Double) at f: Expected Double but found a string instead.")
        #expect(
            Self.error(Widths.self, Self.widthsJSON(replacing: "u16", with: "null"))
                == "valueNotFound(UInt16) at u16: Cannot get UInt16 -- found null value instead")
        #expect(
            Self.error(Widths.self, Self.widthsJSON(replacing: "u32", with: "true"))
                == "typeMismatch(UInt32) at u32: Expected UInt32 but found a boolean instead.")
    }

    /// Integers as single values (what `[Int8]` and top-level numbers decode through).
    @Test func singleValuesOfEveryWidth() throws {
        #expect(try Self.decode([Int8].self, "[1, -128, 127.0]").get() == [1, -128, 127])
        #expect(try Self.decode([Int16].self, "[-32768]").get() == [-32768])
        #expect(try Self.decode([Int32].self, "[7]").get() == [7])
        #expect(try Self.decode([Int64].self, "[-7]").get() == [-7])
        #expect(try Self.decode([UInt].self, "[7]").get() == [7])
        #expect(try Self.decode([UInt8].self, "[255]").get() == [255])
        #expect(try Self.decode([UInt16].self, "[1]").get() == [1])
        #expect(try Self.decode([UInt32].self, "[2]").get() == [2])
        #expect(try Self.decode([UInt64].self, "[18446744073709549568.0]").get() == [18_446_744_073_709_549_568])
        #expect(try Self.decode([Float].self, "[1, 0.5]").get() == [1, 0.5])
        #expect(try Self.decode([Double].self, "[1, 0.5, -1e300]").get() == [1, 0.5, -1e300])
        #expect(try Self.decode([Bool].self, "[true, false]").get() == [true, false])
        #expect(try Self.decode([Int].self, "[1, 2.0]").get() == [1, 2])
        #expect(try Self.decode([String].self, #"["a", "é"]"#).get() == ["a", "é"])
        #expect(try Self.decode(Int8?.self, "null").get() == nil)
        #expect(try Self.decode(Int8?.self, "5").get() == 5)
        #expect(try Self.decode(UInt64.self, "0").get() == 0)
        #expect(
            Self.error([Int8].self, "[1, 300]") == "dataCorrupted at 1: Parsed JSON number <300> does not fit in Int8.")
        #expect(Self.error(UInt.self, "-3") == "dataCorrupted at : Parsed JSON number <-3> does not fit in UInt.")
        #expect(
            Self.error([Int16].self, "[[1]]") == "typeMismatch(Int16) at 0: Expected Int16 but found an array instead.")
        #expect(
            Self.error([Float].self, #"[1, {}]"#)
                == "typeMismatch(Double) at 1: Expected Double but found a dictionary instead.")
        #expect(Self.error([Bool].self, "[1]") == "typeMismatch(Bool) at 0: Expected Bool but found a number instead.")
        #expect(
            Self.error([String].self, "[null]")
                == "valueNotFound(String) at 0: Cannot get String -- found null value instead")
        #expect(
            Self.error([Int].self, "{}")
                == "typeMismatch(Array<Any>) at : Expected Array<Any> but found a dictionary instead.")
        #expect(
            Self.error([String: Int].self, "[]")
                == "typeMismatch(Dictionary<String, Any>) at : Expected Dictionary<String, Any> but found an array instead."
        )
    }

    /// Everything a keyed container offers, read by hand.
    struct Keyed: Decodable, Equatable {
        enum Keys: String, CodingKey { case a, b, c, d, e, n, absent, list, object, s, flag, number, count, any }
        var keys: [String]
        var has: [Bool]
        var aIsNil: Bool
        var nIsNil: Bool
        var inner: Int
        var items: [String]
        var itemCount: Int?
        var fromSuper: String
        var superOfAbsent: Bool
        var rootSuper: Bool
        var s: String?
        var flag: Bool?
        var number: Double?
        var count: Int?
        var any: [Int]?
        var missing: String?

        init(
            keys: [String], has: [Bool], aIsNil: Bool, nIsNil: Bool, inner: Int, items: [String], itemCount: Int?,
            fromSuper: String, superOfAbsent: Bool, rootSuper: Bool, s: String?, flag: Bool?, number: Double?,
            count: Int?, any: [Int]?, missing: String?
        ) {
            self.keys = keys
            self.has = has
            self.aIsNil = aIsNil
            self.nIsNil = nIsNil
            self.inner = inner
            self.items = items
            self.itemCount = itemCount
            self.fromSuper = fromSuper
            self.superOfAbsent = superOfAbsent
            self.rootSuper = rootSuper
            self.s = s
            self.flag = flag
            self.number = number
            self.count = count
            self.any = any
            self.missing = missing
        }

        init(from decoder: any Decoder) throws {
            #expect(decoder.userInfo.isEmpty)
            #expect(decoder.codingPath.isEmpty)
            let container = try decoder.container(keyedBy: Keys.self)
            keys = container.allKeys.map(\.stringValue)
            has = [container.contains(.a), container.contains(.n), container.contains(.absent)]
            aIsNil = try container.decodeNil(forKey: .a)
            nIsNil = try container.decodeNil(forKey: .n)
            let object = try container.nestedContainer(keyedBy: Keys.self, forKey: .object)
            #expect(object.codingPath.map(\.stringValue) == ["object"])
            inner = try object.decode(Int.self, forKey: .a)
            var list = try container.nestedUnkeyedContainer(forKey: .list)
            #expect(list.codingPath.map(\.stringValue) == ["list"])
            itemCount = list.count
            var items: [String] = []
            while !list.isAtEnd { items.append(try list.decode(String.self)) }
            self.items = items
            fromSuper = try String(from: container.superDecoder(forKey: .e))
            superOfAbsent = try container.superDecoder(forKey: .absent).singleValueContainer().decodeNil()
            rootSuper = try container.superDecoder().singleValueContainer().decodeNil()
            s = try container.decodeIfPresent(String.self, forKey: .s)
            flag = try container.decodeIfPresent(Bool.self, forKey: .flag)
            number = try container.decodeIfPresent(Double.self, forKey: .number)
            count = try container.decodeIfPresent(Int.self, forKey: .count)
            any = try container.decodeIfPresent([Int].self, forKey: .any)
            missing = try container.decodeIfPresent(String.self, forKey: .absent)
        }
    }

    static let keyed = #"""
        {"a": 1, "n": null, "object": {"a": 5}, "list": ["x", "y"], "e": "sup", "s": "t", "flag": false,
         "number": 2, "count": 3.0, "any": [1], "zz": 0}
        """#

    @Test func keyedContainersByHand() throws {
        #expect(
            try Self.decode(Keyed.self, Self.keyed).get()
                == Keyed(
                    keys: ["a", "n", "object", "list", "e", "s", "flag", "number", "count", "any"],
                    has: [true, true, false], aIsNil: false, nIsNil: true, inner: 5, items: ["x", "y"], itemCount: 2,
                    fromSuper: "sup", superOfAbsent: true, rootSuper: true, s: "t", flag: false, number: 2, count: 3,
                    any: [1], missing: nil))
        // Null and absent are both nil for decodeIfPresent.
        let nulls = Self.keyed.replacingOccurrences(of: #""s": "t", "flag": false,"#, with: #""s": null,"#)
            .replacingOccurrences(of: #""number": 2, "count": 3.0, "any": [1]"#, with: #""number": null, "any": null"#)
        let decoded = try Self.decode(Keyed.self, nulls).get()
        #expect(decoded.s == nil)
        #expect(decoded.flag == nil)
        #expect(decoded.number == nil)
        #expect(decoded.count == nil)
        #expect(decoded.any == nil)
    }

    @Test func keyedErrorsNameTheKeyAndPath() {
        func replacing(_ old: String, _ new: String) -> String { Self.keyed.replacingOccurrences(of: old, with: new) }
        #expect(
            Self.error(Keyed.self, replacing(#""a": 1, "#, ""))
                == #"keyNotFound(a) at : No value associated with key Keys(stringValue: "a", intValue: nil) ("a")."#)
        #expect(
            Self.error(Keyed.self, replacing(#""object": {"a": 5}"#, #""object": {"b": 5}"#))
                == #"keyNotFound(a) at object: No value associated with key Keys(stringValue: "a", intValue: nil) ("a")."#
        )
        #expect(
            Self.error(Keyed.self, replacing(#""object": {"a": 5}"#, #""object": [5]"#))
                == "typeMismatch(Dictionary<String, Any>) at object: Expected Dictionary<String, Any> but found an array instead."
        )
        #expect(
            Self.error(Keyed.self, replacing(#""object": {"a": 5}"#, #""object": {"a": "5"}"#))
                == "typeMismatch(Int) at object.a: Expected Int but found a string instead.")
        #expect(
            Self.error(Keyed.self, replacing(#""list": ["x", "y"]"#, #""list": "x""#))
                == "typeMismatch(Array<Any>) at list: Expected Array<Any> but found a string instead.")
        #expect(
            Self.error(Keyed.self, replacing(#""list": ["x", "y"]"#, #""list": ["x", 2]"#))
                == "typeMismatch(String) at list.1: Expected String but found a number instead.")
        #expect(
            Self.error(Keyed.self, replacing(#""e": "sup""#, #""e": 1"#))
                == "typeMismatch(String) at e: Expected String but found a number instead.")
        #expect(
            Self.error(Keyed.self, replacing(#""s": "t""#, #""s": 1"#))
                == "typeMismatch(String) at s: Expected String but found a number instead.")
        #expect(
            Self.error(Keyed.self, replacing(#""flag": false"#, #""flag": "no""#))
                == "typeMismatch(Bool) at flag: Expected Bool but found a string instead.")
        #expect(
            Self.error(Keyed.self, replacing(#""number": 2"#, #""number": []"#))
                == "typeMismatch(Double) at number: Expected Double but found an array instead.")
        #expect(
            Self.error(Keyed.self, replacing(#""count": 3.0"#, #""count": 3.5"#))
                == "dataCorrupted at count: Parsed JSON number <3.5> does not fit in Int.")
        #expect(
            Self.error(Keyed.self, replacing(#""any": [1]"#, #""any": [null]"#))
                == "valueNotFound(Int) at any.0: Cannot get Int -- found null value instead")
        #expect(
            Self.error(Keyed.self, "[]")
                == "typeMismatch(Dictionary<String, Any>) at : Expected Dictionary<String, Any> but found an array instead."
        )
        #expect(
            Self.error(Keyed.self, "null")
                == "valueNotFound(Dictionary<String, Any>) at : Cannot get Dictionary<String, Any> -- found null value instead"
        )
    }

    /// Everything an unkeyed container offers, read by hand in order.
    struct Unkeyed: Decodable, Equatable {
        enum Keys: String, CodingKey { case k }
        var values: [String] = []

        init(values: [String]) { self.values = values }

        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            func add(_ value: some CustomStringConvertible) { values.append(value.description) }
            add(c.count ?? -1)
            add(try c.decodeNil())
            add(try c.decode(Bool.self))
            add(try c.decode(String.self))
            add(try c.decode(Double.self))
            add(try c.decode(Float.self))
            add(try c.decode(Int.self))
            add(try c.decode(Int8.self))
            add(try c.decode(Int16.self))
            add(try c.decode(Int32.self))
            add(try c.decode(Int64.self))
            add(try c.decode(UInt.self))
            add(try c.decode(UInt8.self))
            add(try c.decode(UInt16.self))
            add(try c.decode(UInt32.self))
            add(try c.decode(UInt64.self))
            // Not null: nothing read.
            add(try c.decodeNil())
            add(c.currentIndex)
            add(try c.decode(Int.self))
            let object = try c.nestedContainer(keyedBy: Keys.self)
            #expect(object.codingPath.map(\.stringValue) == ["16"])
            add(try object.decode(String.self, forKey: .k))
            var inner = try c.nestedUnkeyedContainer()
            #expect(inner.codingPath.map(\.stringValue) == ["17"])
            add(try inner.decode(Int.self))
            add(try Int(from: c.superDecoder()))
            add(try c.decode([String: Bool].self).description)
            add(c.isAtEnd)
            add(try c.decodeNil())
        }
    }

    static let unkeyed =
        #"[null, true, "s", 1, 0.5, -1, -8, 16, -32, 64, 1, 8, 16, 32, 64, 0, {"k": "v"}, [9], 7, {"t": true}]"#

    @Test func unkeyedContainersByHand() throws {
        #expect(
            try Self.decode(Unkeyed.self, Self.unkeyed).get().values == [
                "20", "true", "true", "s", "1.0", "0.5", "-1", "-8", "16", "-32", "64", "1", "8", "16", "32", "64",
                "false", "15", "0", "v", "9", "7", #"["t": true]"#, "true", "false",
            ])
    }

    @Test func unkeyedErrorsNameTheIndex() {
        func replacing(_ old: String, _ new: String) -> String {
            Self.unkeyed.replacingOccurrences(of: old, with: new)
        }
        #expect(
            Self.error(Unkeyed.self, replacing(#"{"t": true}]"#, "{}]").replacingOccurrences(of: "7, {}", with: "7"))
                == "valueNotFound(Dictionary<String, Bool>) at 19: Unkeyed container is at end.")
        #expect(
            Self.error(Unkeyed.self, replacing("[null, true,", #"[null, "true","#))
                == "typeMismatch(Bool) at 1: Expected Bool but found a string instead.")
        #expect(
            Self.error(Unkeyed.self, replacing(#", -8, 16,"#, ", -800, 16,"))
                == "dataCorrupted at 6: Parsed JSON number <-800> does not fit in Int8.")
        #expect(
            Self.error(Unkeyed.self, replacing(#", 0.5, -1,"#, #", "0.5", -1,"#))
                == "typeMismatch(Double) at 4: Expected Double but found a string instead.")
        #expect(
            Self.error(Unkeyed.self, replacing(#"{"k": "v"}"#, #"["v"]"#))
                == "typeMismatch(Dictionary<String, Any>) at 16: Expected Dictionary<String, Any> but found an array instead."
        )
        #expect(
            Self.error(Unkeyed.self, replacing("[9]", "9"))
                == "typeMismatch(Array<Any>) at 17: Expected Array<Any> but found a number instead.")
        #expect(
            Self.error(Unkeyed.self, replacing("[9], 7,", "[9], null,"))
                == "valueNotFound(Int) at 18: Cannot get Int -- found null value instead")
        #expect(
            Self.error(Unkeyed.self, replacing(#"{"t": true}"#, #"{"t": 1}"#))
                == "typeMismatch(Bool) at 19.t: Expected Bool but found a number instead.")
    }

    /// Past the end, each kind of read says so at the index it wanted.
    @Test func readsPastTheEnd() throws {
        struct PastEnd: Decodable {
            init(from decoder: any Decoder) throws {
                var c = try decoder.unkeyedContainer()
                #expect(try c.decodeNil() == false)
                let reads: [(inout any UnkeyedDecodingContainer) throws -> Void] = [
                    { _ = try $0.decode(Bool.self) }, { _ = try $0.decode(String.self) },
                    { _ = try $0.decode(Double.self) }, { _ = try $0.decode(Float.self) },
                    { _ = try $0.decode(Int.self) }, { _ = try $0.decode(UInt8.self) },
                    { _ = try $0.decode([Int].self) }, { _ = try $0.nestedUnkeyedContainer() },
                    { _ = try $0.nestedContainer(keyedBy: JSONValueDecoderCoverageTests.Unkeyed.Keys.self) },
                    { _ = try $0.superDecoder() },
                ]
                var messages: [String] = []
                for read in reads {
                    do {
                        try read(&c)
                    } catch let error as DecodingError {
                        messages.append(Failure(error).text)
                    }
                }
                #expect(
                    messages == [
                        "valueNotFound(Bool) at 0: Unkeyed container is at end.",
                        "valueNotFound(String) at 0: Unkeyed container is at end.",
                        "valueNotFound(Double) at 0: Unkeyed container is at end.",
                        "valueNotFound(Float) at 0: Unkeyed container is at end.",
                        "valueNotFound(Int) at 0: Unkeyed container is at end.",
                        "valueNotFound(UInt8) at 0: Unkeyed container is at end.",
                        "valueNotFound(Array<Int>) at 0: Unkeyed container is at end.",
                        "valueNotFound(UnkeyedDecodingContainer) at 0: Unkeyed container is at end.",
                        "valueNotFound(KeyedDecodingContainer<Keys>) at 0: Unkeyed container is at end.",
                        "valueNotFound(Decoder) at 0: Unkeyed container is at end.",
                    ])
            }
        }
        _ = try Self.decode(PastEnd.self, "[]").get()
    }

    /// Top-level single values of each primitive, and what each says of a wrong one.
    @Test func singleValueContainers() throws {
        struct Single: Decodable {
            var values: [String] = []
            init(from decoder: any Decoder) throws {
                let c = try decoder.singleValueContainer()
                #expect(c.codingPath.isEmpty)
                values.append(String(c.decodeNil()))
                for read in [
                    { String(try c.decode(Bool.self)) }, { try c.decode(String.self) },
                    { String(try c.decode(Double.self)) },
                    { String(try c.decode(Float.self)) }, { String(try c.decode(Int.self)) },
                    { String(try c.decode(Int8.self)) }, { String(try c.decode(Int16.self)) },
                    { String(try c.decode(Int32.self)) }, { String(try c.decode(Int64.self)) },
                    { String(try c.decode(UInt.self)) }, { String(try c.decode(UInt8.self)) },
                    { String(try c.decode(UInt16.self)) }, { String(try c.decode(UInt32.self)) },
                    { String(try c.decode(UInt64.self)) }, { String(describing: try c.decode([Int].self)) },
                ] {
                    do {
                        values.append(try read())
                    } catch let error as DecodingError {
                        values.append(Failure(error).text)
                    }
                }
            }
        }
        #expect(
            try Self.decode(Single.self, "200").get().values == [
                "false", "typeMismatch(Bool) at : Expected Bool but found a number instead.",
                "typeMismatch(String) at : Expected String but found a number instead.", "200.0", "200.0", "200",
                "dataCorrupted at : Parsed JSON number <200> does not fit in Int8.", "200", "200", "200", "200", "200",
                "200", "200", "200", "typeMismatch(Array<Any>) at : Expected Array<Any> but found a number instead.",
            ])
        #expect(
            try Self.decode(Single.self, "null").get().values == [
                "true", "valueNotFound(Bool) at : Cannot get Bool -- found null value instead",
                "valueNotFound(String) at : Cannot get String -- found null value instead",
                "valueNotFound(Double) at : Cannot get Double -- found null value instead",
                "valueNotFound(Double) at : Cannot get Double -- found null value instead",
                "valueNotFound(Int) at : Cannot get Int -- found null value instead",
                "valueNotFound(Int8) at : Cannot get Int8 -- found null value instead",
                "valueNotFound(Int16) at : Cannot get Int16 -- found null value instead",
                "valueNotFound(Int32) at : Cannot get Int32 -- found null value instead",
                "valueNotFound(Int64) at : Cannot get Int64 -- found null value instead",
                "valueNotFound(UInt) at : Cannot get UInt -- found null value instead",
                "valueNotFound(UInt8) at : Cannot get UInt8 -- found null value instead",
                "valueNotFound(UInt16) at : Cannot get UInt16 -- found null value instead",
                "valueNotFound(UInt32) at : Cannot get UInt32 -- found null value instead",
                "valueNotFound(UInt64) at : Cannot get UInt64 -- found null value instead",
                "valueNotFound(Array<Any>) at : Cannot get Array<Any> -- found null value instead",
            ])
        let text = try Self.decode(Single.self, #""-1""#).get().values
        #expect(text[0...2] == ["false", "typeMismatch(Bool) at : Expected Bool but found a string instead.", "-1"])
    }

    /// Nested containers keep the whole path: keys and indexes from the root.
    @Test func pathsThroughNestedContainers() throws {
        struct Leaf: Decodable { var n: UInt8 }
        struct Middle: Decodable { var leaves: [[Leaf]] }
        struct Root: Decodable { var middle: [String: Middle] }
        #expect(
            Self.error(Root.self, #"{"middle": {"m": {"leaves": [[{"n": 1}], [{"n": 2}, {"n": 256}]]}}}"#)
                == "dataCorrupted at middle.m.leaves.1.1.n: Parsed JSON number <256> does not fit in UInt8.")
        #expect(
            Self.error(Root.self, #"{"middle": {"m": {"leaves": [[{}]]}}}"#)
                == #"keyNotFound(n) at middle.m.leaves.0.0: No value associated with key CodingKeys(stringValue: "n", intValue: nil) ("n")."#
        )
        #expect(
            Self.error(Root.self, #"{"middle": {"m": {"leaves": [null]}}}"#)
                == "valueNotFound(Array<Any>) at middle.m.leaves.0: Cannot get Array<Any> -- found null value instead")
        #expect(
            Self.error(Root.self, #"{"middle": {"m": {"leaves": [[true]]}}}"#)
                == "typeMismatch(Dictionary<String, Any>) at middle.m.leaves.0.0: Expected Dictionary<String, Any> but found a boolean instead."
        )
        let root = try Self.decode(Root.self, #"{"middle": {"m": {"leaves": [[{"n": 1}], [{"n": 2}, {"n": 255.0}]]}}}"#)
            .get()
        #expect(root.middle.keys.sorted() == ["m"])
        #expect(root.middle["m"]?.leaves.map { $0.map(\.n) } == [[1], [2, 255]])
    }

    /// Where JSONDecoder and ours meet on these bodies: the same outcome.
    @Test(arguments: [
        #"[1, -128, 127.0]"#, "[1, 300]", "[[1]]", "[null]", "{}", "7", "null",
    ])
    func singleValueArraysAgreeWithJSONDecoder(_ text: String) {
        let bytes = Array(text.utf8)
        for (foundation, ours) in [
            JSONValueDecoderTests.both([Int8].self)(bytes), JSONValueDecoderTests.both([UInt16].self)(bytes),
            JSONValueDecoderTests.both([Float].self)(bytes), JSONValueDecoderTests.both(Int8?.self)(bytes),
        ] {
            if case .error(kind: "dataCorrupted", _) = ours {
                // JSONDecoder's overflow has no path (JSONValueDecoder's doc comment): it reads as not JSON.
                #expect(foundation == .notJSON, "\(text)")
            } else {
                #expect(ours == foundation, "\(text)")
            }
        }
    }
}
