import Switchyard

// Registering and removing one thing at a time, the way apps and generated
// tables do it: one `addRoutes` call per route, one `dispose()` per handler.
// These must cost O(1) each, so that n of them cost O(n).

extension BenchCase {
    /// Building a ring of `count` routes with one `addRoutes` call per route.
    static func buildByCalls(routes count: Int) -> BenchCase {
        BenchCase(
            name: "build-\(count / 1000)k-calls",
            summary: "building a machine: \(count) routes of a ring, one addRoutes call (and one disposable) each",
            switchyard: {
                { iterations in
                    var checksum = 0
                    for _ in 0..<iterations {
                        let machine = Machine<RingState, RingEvent>(state: RingState(index: 0))
                        for index in 0..<count {
                            let route = RingState(index: index) => RingState(index: (index &+ 1) % count)
                            let disposable = machine.addRoutes(event: .advance, transitions: [route])
                            checksum &+= disposable.disposed ? 0 : 1
                        }
                        machine.addHandler(event: .any) { _ in }
                        checksum &+= machine.state.index
                    }
                    return checksum
                }
            },
            dictionary: {
                { iterations in
                    var checksum = 0
                    for _ in 0..<iterations {
                        let machine = DictionaryMachine<RingState, RingEvent>(state: RingState(index: 0), routes: [:])
                        for index in 0..<count {
                            let key = machine.addRoute(
                                from: RingState(index: index), on: .advance, to: RingState(index: (index &+ 1) % count))
                            checksum &+= key.state.index == index ? 1 : 0
                        }
                        machine.handlers.append { _ in }
                        checksum &+= machine.state.index
                    }
                    return checksum
                }
            },
            handSwitch: nil
        )
    }

    /// Adding 10,000 handlers of one event, then disposing them one by one.
    static let dispose10k = BenchCase(
        name: "dispose-10k",
        summary: "adding 10,000 handlers of one event, then disposing them one by one in the order added",
        switchyard: {
            let machine = Machine<Light, LightEvent>(state: .s0)
            var disposables: [Disposable] = []
            disposables.reserveCapacity(10_000)
            return { iterations in
                var checksum = 0
                for _ in 0..<iterations {
                    for _ in 0..<10_000 {
                        disposables.append(machine.addHandler(event: .next) { _ in })
                    }
                    for disposable in disposables {
                        disposable.dispose()
                    }
                    checksum &+= disposables.count
                    disposables.removeAll(keepingCapacity: true)
                }
                return checksum
            }
        },
        dictionary: {
            var tokens: [Int] = []
            tokens.reserveCapacity(10_000)
            return { iterations in
                var checksum = 0
                for _ in 0..<iterations {
                    // A fresh list each time, as a fresh machine's slots would be.
                    let list = HandlerList<Change<Light, LightEvent>>()
                    for _ in 0..<10_000 {
                        tokens.append(list.add { _ in })
                    }
                    for token in tokens {
                        list.remove(token)
                    }
                    checksum &+= tokens.count
                    tokens.removeAll(keepingCapacity: true)
                }
                return checksum
            }
        },
        handSwitch: nil
    )
}
