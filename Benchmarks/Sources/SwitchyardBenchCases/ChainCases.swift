import Switchyard

// Handler-driven chains: each step's handler makes the next request, as a
// workflow that advances itself does. One operation is one step of a chain
// as long as the run; the machine runs it to completion, so the stack stays
// flat however long it is. The baseline is the same chain written by hand:
// a dictionary machine whose handler queues the next event, and a loop that
// fires what is queued.
//
// - `chain-rtc`: `event-small`'s cycle on a flat machine with
//   `.runToCompletion`, the next event requested from an `.any` handler.
// - `chain-chart`: the same cycle as the children of one state, the next
//   event requested from each child's entry handler.

extension BenchCase {
    static let chainRunToCompletion = BenchCase(
        name: "chain-rtc",
        summary: "a handler-driven chain round event-small's cycle under .runToCompletion: each step's handler "
            + "requests the next",
        switchyard: {
            let counter = Counter()
            let machine = Machine<Light, LightEvent>(state: .s0, delivery: .runToCompletion)
            machine.addRoutes(event: .next, transitions: [.s0 => .s1, .s1 => .s2, .s2 => .s3])
            machine.addRoutes(event: .reset, transitions: [.s3 => .s0])
            var remaining = 0
            machine.addHandler(event: .any) { [unowned machine] context in
                counter.value &+= 1
                guard remaining > 0 else { return }
                remaining -= 1
                machine <-! (context.toState == .s3 ? .reset : .next)
            }
            return { iterations in
                remaining = iterations - 1
                machine <-! (machine.state == .s3 ? .reset : .next)
                return counter.value
            }
        },
        dictionary: { chainBaseline() },
        handSwitch: nil
    )

    static let chainChart = BenchCase(
        name: "chain-chart",
        summary: "a chain round event-small's cycle as the children of one state, each entry handler requesting "
            + "the next step",
        switchyard: {
            let counter = Counter()
            let machine = Machine<Stage, LightEvent>(state: .top, delivery: .runToCompletion)
            machine.addChildren([.s0, .s1, .s2, .s3], to: .top)
            machine.addRoutes(event: .next, transitions: [.s0 => .s1, .s1 => .s2, .s2 => .s3])
            machine.addRoutes(event: .reset, transitions: [.s3 => .s0])
            var remaining = 0
            for child in [Stage.s0, .s1, .s2, .s3] {
                machine.addEntryHandler(child) { [unowned machine] _ in
                    counter.value &+= 1
                    guard remaining > 0 else { return }
                    remaining -= 1
                    machine <-! (child == .s3 ? .reset : .next)
                }
            }
            machine.start()
            counter.value = 0
            return { iterations in
                remaining = iterations - 1
                machine <-! (machine.state == .s3 ? .reset : .next)
                return counter.value
            }
        },
        dictionary: { chainBaseline() },
        handSwitch: nil
    )
}

/// `event-small`'s cycle as the children of one state.
private enum Stage: StateType {
    case top, s0, s1, s2, s3
}

/// The chains by hand: a dictionary machine whose handler queues the next
/// event, drained by a loop.
private func chainBaseline() -> Workload {
    let counter = Counter()
    let machine = DictionaryMachine<Light, LightEvent>(
        state: .s0,
        routes: [
            RouteKey(state: .s0, event: .next): .s1, RouteKey(state: .s1, event: .next): .s2,
            RouteKey(state: .s2, event: .next): .s3, RouteKey(state: .s3, event: .reset): .s0,
        ]
    )
    var queue: [LightEvent] = []
    var remaining = 0
    machine.handlers.append { change in
        counter.value &+= 1
        guard remaining > 0 else { return }
        remaining -= 1
        queue.append(change.to == .s3 ? .reset : .next)
    }
    return { iterations in
        remaining = iterations - 1
        queue.append(machine.state == .s3 ? .reset : .next)
        var next = 0
        while next < queue.count {
            _ = machine.fire(queue[next])
            next += 1
        }
        queue.removeAll(keepingCapacity: true)
        return counter.value
    }
}
