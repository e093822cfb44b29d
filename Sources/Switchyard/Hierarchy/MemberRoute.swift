/// A route of one machine of a hierarchy, as a step needs it: its
/// registration, its target in the machine's codes (``SymbolCode/wildcard``
/// for a route to `.any`, which stays), and whether it is local.
@usableFromInline
typealias MemberRoute = (id: RegistrationID, target: SymbolCode, isLocal: Bool)
