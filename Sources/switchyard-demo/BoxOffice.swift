import Switchyard

// Part 4: one machine shared by several tasks. Four sellers sell seats for
// the same show at once; a SendableMachine takes their requests one at a
// time, so no seat is sold twice and none is left over. When the last seat
// goes, a handler closes the box office: its request goes in at once and is
// delivered after the handlers in progress. Which seller sells which seat
// changes from run to run, so only what cannot change is printed: the totals,
// and what the machine's transition stream saw, in the machine's order.

/// Where the box office is: selling, with the seats left; sold out; closed.
enum BoxOffice: StateType {
    case selling(seatsLeft: Int)
    case soldOut
    case closed
}

/// What happens at the box office.
enum BoxOfficeEvent: EventType {
    case sell, close
}

func runBoxOffice() async {
    printHeading("4. A box office, shared by four sellers")
    let seats = 25
    let sellers = 4
    let attemptsPerSeller = 8

    let office = SendableMachine<BoxOffice, BoxOfficeEvent>(state: .selling(seatsLeft: seats)) { office in
        // One seat per sale; the last one sells the show out.
        office.addRouteMapping { event, state, _ in
            guard event == .sell, case .selling(let left) = state else { return nil }
            return left > 1 ? .selling(seatsLeft: left - 1) : .soldOut
        }
        office.addRoutes(event: .close, transitions: [.soldOut => .closed])
        // A handler's own request: decided at once, delivered after this one.
        office.addAnyHandler(.any => .soldOut) { [unowned office] _ in office <-! .close }
    }
    let records = office.transitions(includingRefusals: true)

    print("\(sellers) sellers each try to sell \(attemptsPerSeller) of \(seats) seats, all at once.")
    let sold = await withTaskGroup(of: Int.self) { group in
        for _ in 0..<sellers {
            group.addTask {
                (0..<attemptsPerSeller).count { _ in office.tryEvent(.sell) }
            }
        }
        return await group.reduce(0, +)
    }
    print("  sold \(sold), turned away \(sellers * attemptsPerSeller - sold); the office is \(office.state)")

    // The stream ends once the machine is gone; the tasks let go of it above.
    _ = consume office
    var seatsSeen: [Int] = []
    var others: [String] = []
    var refusals: [String: Int] = [:]
    for await record in records {
        if let refusal = record.refusal {
            refusals["\(refusal)", default: 0] += 1
        } else if case .selling(let left) = record.fromState {
            seatsSeen.append(left)
        } else {
            others.append("\(record)")
        }
    }
    print("The transition stream, in the machine's order:")
    let oneAtATime = seatsSeen == Array((1...seats).reversed())
    print("  \(seatsSeen.count) sales, each leaving one seat fewer than the one before: \(oneAtATime)")
    for line in others {
        print("  then \(line)")
    }
    for (reason, count) in refusals.sorted(by: { $0.key < $1.key }) {
        print("  \(count) sales refused: \(reason)")
    }
}
