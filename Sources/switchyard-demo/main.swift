// `swift run switchyard-demo`: a walk-through of Switchyard in four machines.
//
// The first is driven by events, the way an issue tracker moves a ticket; the
// second by asking for states, the way a release moves through its pipeline;
// the third is a statechart, a music player whose states nest, whose regions
// run side by side, and which stops by itself when its album ends; the fourth
// is shared by several tasks, a box office whose sellers all sell at once.
// Everything printed comes from the machines' own handlers and results, and the
// output is the same on every run.
//
// `swift run switchyard-demo --dot` prints only the Graphviz DOT of the music
// player's statechart, for `Scripts/render-diagrams.sh`.

if CommandLine.arguments.dropFirst().contains("--dot") {
    print(makeMusicPlayer().describe().dot(), terminator: "")
} else {
    runTicketWorkflow()
    print()
    runReleasePipeline()
    print()
    runMusicPlayer()
    print()
    await runBoxOffice()
}
