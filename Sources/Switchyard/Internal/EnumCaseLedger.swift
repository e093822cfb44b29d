#if canImport(Synchronization)
    import Synchronization
#endif

/// What debug builds check every ``EnumCaseReader`` answer against: the case
/// `Mirror` names for each case index read so far, and the index read for
/// each case it names, per type.
///
/// The reader's answer is right for the library's purposes when it is one
/// index per case: two values of one case get the same index, and values of
/// different cases get different ones. `Mirror` does not number cases, but it
/// names them, so the ledger remembers which name each index was read for,
/// and which index each name: a second answer that disagrees with either
/// fails the reader's `assert`. (A Swift runtime once returned wrong enum
/// tags in release builds only: release builds skip the check, debug builds
/// would catch such a bug wherever the reader is used.)
///
/// Values whose case `Mirror` cannot name are not checked: a type that
/// reflects or prints itself (`CustomReflectable`, `CustomStringConvertible`
/// and the like) and a payload-free case, whose name only printing gives.
@usableFromInline
enum EnumCaseLedger {
    /// A type and one of its cases, as an index or as a name.
    struct Key<Case: Hashable>: Hashable {
        var type: ObjectIdentifier
        var caseKey: Case
    }

    struct Entries {
        var names: [Key<Int>: String] = [:]
        var indices: [Key<String>: Int] = [:]
    }

    /// Whether `index`, read as the case of `value`, agrees with every index
    /// read before for the type; always `true` where the ledger cannot be
    /// kept (no `Synchronization`) or `Mirror` cannot name the case.
    ///
    /// Reflects, locks and hashes: for `assert` only.
    @usableFromInline
    static func agrees<Value>(_ index: Int, with value: Value) -> Bool {
        // Named before taking the lock: `Mirror` may call the type's own code.
        guard let name = caseName(of: value) else { return true }
        #if canImport(Synchronization)
            if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
                let type = ObjectIdentifier(Value.self)
                return Ledger.shared.withLock { entries in
                    let byIndex = Key(type: type, caseKey: index)
                    let byName = Key(type: type, caseKey: name)
                    if let known = entries.names[byIndex], known != name {
                        return false
                    }
                    if let known = entries.indices[byName], known != index {
                        return false
                    }
                    entries.names[byIndex] = name
                    entries.indices[byName] = index
                    return true
                }
            }
        #endif
        return true
    }

    /// The case's name, with the labels of its associated values (cases may
    /// share a base name, `case move(to: Int)` and `case move(by: Int)`);
    /// `nil` where `Mirror` cannot tell.
    static func caseName<Value>(of value: Value) -> String? {
        guard !(value is CustomReflectable) else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum || mirror.displayStyle == .optional else { return nil }
        guard let payload = mirror.children.first else {
            // A case without associated values: only printing names it.
            let printsItself =
                value is CustomStringConvertible || value is CustomDebugStringConvertible
                || value is any TextOutputStreamable
            return printsItself ? nil : String(describing: value)
        }
        guard let base = payload.label else { return nil }
        let values = Mirror(reflecting: payload.value)
        guard values.displayStyle == .tuple else { return base }
        let labels = values.children.map { ($0.label.map { $0.hasPrefix(".") ? "_" : $0 } ?? "_") + ":" }
        return "\(base)(\(labels.joined()))"
    }
}

#if canImport(Synchronization)
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    extension EnumCaseLedger {
        /// The ledger of every type read in this process.
        enum Ledger {
            static let shared = Mutex(Entries())
        }
    }
#endif
