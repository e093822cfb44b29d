import Switchyard

// Part 2: a machine driven by asking for states with `<-`. A route chain adds
// the pipeline's steps at once and says when a release has walked all of them;
// a handler that is disposed stops running.

/// Where a release is on its way to production.
enum Release: StateType {
    case idle, building, testing, staging, production, rolledBack
}

func runReleasePipeline() {
    printHeading("2. A release pipeline, driven by states")
    let pipeline: TransitionChain<Release> = .building => .testing => .staging => .production

    let release = StateMachine<Release, NoEvent>(state: .idle) { release in
        release.addRoute(.idle => .building)
        release.addRoute(.production => .idle)
        release.addRoute(.rolledBack => .idle)
        // Any release can be rolled back, whatever step it has reached.
        release.addRoute(.any => .rolledBack)

        // Adds building => testing, testing => staging and staging => production,
        // and a handler for a walk through all three in a row.
        release.addRouteChain(pipeline) { _ in
            print("    chain:   built, tested, staged and shipped in one go")
        }
        release.addChainErrorHandler(pipeline) { context in
            // As in SwiftState, once a walk has left the pipeline, every later move
            // is off it too, until the pipeline's first step is taken again.
            print("    chain:   \(context.fromState) => \(context.toState) is off the pipeline's walk")
        }

        release.addHandler(.any => .any, order: 10) { context in
            print("    moved:   \(context.fromState) => \(context.toState)")
        }
        release.addErrorHandler { context in
            print("    error:   no way from \(context.fromState) to \(context.toState)")
        }
    }

    // Kept, so that it can be removed later.
    let pager = release.addHandler(.any => .rolledBack) { _ in
        print("    pager:   on-call engineer paged about the rollback")
    }

    print("Ship a release, one state after another:")
    release <- .building <- .testing <- .staging <- .production

    print("Ask to rebuild straight from production, with the typed API:")
    switch release.attemptState(.building) {
    case .success(let state):
        print("  -> now \(state)")
    case .failure(let error):
        print("  -> refused (\(error.reason)): \(error)")
    }

    print("Start again, and roll back during the tests:")
    release <- .idle <- .building <- .testing <- .rolledBack

    pager.dispose()
    print("Pager handler disposed (disposed: \(pager.disposed)). Roll back again:")
    release <- .idle <- .building <- .rolledBack

    print()
    print("The release ends \(release.state).")
}
