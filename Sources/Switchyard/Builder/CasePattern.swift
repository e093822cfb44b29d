/// Matches the values of one enum case (or of the cases that carry one
/// type), whatever their associated values: what `From(Document.draft)` and
/// `From(Loading.self)` stand for.
///
/// A value's case is read with ``EnumCaseReader`` (one indirect call). The
/// first time a case is seen, `Mirror` decides whether it belongs to the
/// pattern, and the verdict is kept for that case: later values of the case
/// are matched without reflecting or allocating. Without a reader (a type
/// that is not an enum, or a platform that signs the witness table), every
/// match reflects.
///
/// A pattern by type (`Loading.self`) over a case whose associated value is
/// an instance of a class may match one value of the case and not another
/// (a subclass): such a case is judged anew for every value.
///
/// A definition is not `Sendable` (it holds plain closures), so the verdicts
/// a pattern learns are only ever read and written in one isolation domain.
@usableFromInline
final class CasePattern<Root> {
    /// What is known of each case, by case index.
    @usableFromInline
    enum Verdict: UInt8 {
        /// No value of the case seen yet.
        case unknown
        case matches, differs
        /// The case's values differ: each one is judged.
        case varies
    }

    /// Whether a value belongs to the pattern, and whether every value of
    /// its case would get the same answer; reflects.
    @usableFromInline let judge: (Root) -> (matches: Bool, isCaseWide: Bool)
    /// How the pattern was written, for messages: `Document.draft`, `Loading`.
    @usableFromInline let name: String
    @usableFromInline let reader: EnumCaseReader?
    // Dynamic exclusivity checks are off, as in the machine: the verdicts are
    // read on every match and never held across a call to user code.
    @usableFromInline
    @exclusivity(unchecked) var verdicts: [Verdict] = []

    init(name: String, judge: @escaping (Root) -> (matches: Bool, isCaseWide: Bool)) {
        self.name = name
        self.judge = judge
        self.reader = EnumCaseReader(for: Root.self)
    }

    /// A pattern that judges the same way and has learned nothing yet.
    func fresh() -> CasePattern {
        CasePattern(name: name, judge: judge)
    }

    /// Whether `value` belongs to the pattern.
    ///
    /// - Complexity: One indirect call and an array read once its case has
    ///   been judged; the first value of each case reflects.
    @inlinable
    func matches(_ value: Root) -> Bool {
        guard let reader else { return judge(value).matches }
        let index = reader.caseIndex(of: value)
        if index < verdicts.count {
            switch verdicts[index] {
            case .unknown: break
            case .varies: return judge(value).matches
            case let verdict:
                let matches = verdict == .matches
                // The reader checks its own answers (see `EnumCaseReader`);
                // this checks the verdict kept for the case: debug builds
                // reflect every time and stop if a value of a case judged
                // once for all its values would be judged otherwise.
                assert(
                    matches == judge(value).matches,
                    "The pattern \(name) kept one verdict for every value of \(value)'s case, "
                        + "but judges \(value) otherwise: report this type; release builds would match it wrongly")
                return matches
            }
        }
        return learn(value, index: index)
    }

    /// Whether the values of `value`'s case are judged one by one (see
    /// ``Verdict/varies``); `true` before its case has been judged.
    @inlinable
    func varies(_ value: Root) -> Bool {
        guard let reader else { return true }
        let index = reader.caseIndex(of: value)
        return index >= verdicts.count || verdicts[index] == .varies || verdicts[index] == .unknown
    }

    @usableFromInline
    func learn(_ value: Root, index: Int) -> Bool {
        let (matches, isCaseWide) = judge(value)
        if index >= verdicts.count {
            verdicts.append(contentsOf: repeatElement(.unknown, count: index + 1 - verdicts.count))
        }
        verdicts[index] = isCaseWide ? (matches ? .matches : .differs) : .varies
        return matches
    }
}

extension CasePattern {
    /// The pattern of the case that `embed` builds: `Document.draft`,
    /// `Move.to` (several associated values).
    ///
    /// A value belongs to it when its associated values, read with `Mirror`,
    /// can be given to `embed`, and the value `embed` builds is of the same
    /// case. That settles cases whose associated values have the same types
    /// (`.a(Int)` and `.b(Int)`), and rejects cases without any.
    @usableFromInline
    static func of<each Payload>(_ embed: @escaping (repeat each Payload) -> Root) -> CasePattern {
        let name = "a function that builds a \(Root.self)"
        let reader = EnumCaseReader(for: Root.self)
        return CasePattern(name: name) { value in
            requireEnum(value, pattern: name)
            // The constructor's parameters are the case's own types: every
            // value of a case gets the same answer.
            guard let arguments = associatedValue(of: value, as: (repeat each Payload).self) else {
                return (false, true)
            }
            let built = embed(repeat each arguments)
            if let reader {
                return (reader.caseIndex(of: built) == reader.caseIndex(of: value), true)
            }
            return (caseName(of: built) == caseName(of: value), true)
        }
    }

    /// The pattern of the cases whose associated value is a `Payload`:
    /// `Loading.self` for `case loading(Loading)`.
    @usableFromInline
    static func carrying<Payload>(_ type: Payload.Type) -> CasePattern {
        let name = "\(Payload.self).self"
        return CasePattern(name: name) { value in
            requireEnum(value, pattern: name)
            let matches = associatedValue(of: value, as: Payload.self) != nil
            // A class instance may be of a subclass in one value and not in
            // the next: its case is judged value by value.
            let carried = carriedValue(of: value).map { Swift.type(of: $0) }
            return (matches, !(carried is AnyClass))
        }
    }

    /// The associated value of `value`, if it is a `Payload`; reflects, so
    /// it allocates.
    @usableFromInline
    static func payload<Payload>(of value: Root, as type: Payload.Type) -> Payload? {
        associatedValue(of: value, as: Payload.self)
    }
}

/// The associated value of `value`'s case as a `Payload`, if it is one;
/// reflects, so it allocates.
///
/// A case with one labelled value (`case draft(version: Int)`) carries a
/// one-element tuple `(version: Int)` as `Mirror` sees it: that is unwrapped,
/// so that `Document.draft`, whose constructor takes an `Int`, matches it.
private func associatedValue<Value, Payload>(of value: Value, as type: Payload.Type) -> Payload? {
    guard let payload = Mirror(reflecting: value).children.first?.value else { return nil }
    if let matching = payload as? Payload {
        return matching
    }
    return carriedValue(of: value) as? Payload
}

/// The associated value of `value`'s case, a one-element tuple unwrapped;
/// `nil` for a case without one. Reflects.
private func carriedValue<Value>(of value: Value) -> Any? {
    guard let payload = Mirror(reflecting: value).children.first?.value else { return nil }
    let tuple = Mirror(reflecting: payload)
    guard tuple.displayStyle == .tuple, tuple.children.count == 1 else { return payload }
    return tuple.children.first?.value
}

/// The name of `value`'s case, for enums without a case reader.
private func caseName<Value>(of value: Value) -> String? {
    Mirror(reflecting: value).children.first?.label ?? String(describing: value)
}

/// Stops with a message unless `value` is an enum: case patterns match enum cases.
private func requireEnum<Value>(_ value: Value, pattern: String) {
    require(
        Mirror(reflecting: value).displayStyle == .enum,
        "A case pattern (\(pattern)) matches enum cases, but \(Value.self) is not an enum: name its values instead")
}
