// Package engine answers whole CONTRACT requests — evaluate a template on a board, move a
// creature, judge an attack's cover, plan a full attack, keep a board as a scene between
// evaluations — with the CONTRACT result types. Its types carry JSON tags; the codec itself
// lives at the edge (wasm/wire).
package engine

// The files follow the rule book, SPEC.md:
//
//   - evaluate.go and scene.go: an evaluation in order (§2.10): the request validated into a
//     setup, the board read around the area into a scene, then the rules below
//   - profile.go: the request's rule set and its columns (§6)
//   - placement.go: the origin, the origin square, range, "within", the origin's line of
//     effect and the rules of walls (§2.9, §3.1, §3.3–§3.6)
//   - area.go: the cells of the area, cut by barriers (§3.2) or filled around obstacles (§4.3);
//     reach.go: the cells a segment from the origin can reach at all (§3.2, §5.2)
//   - targets.go: who is in the area and affected, and why not (§7.1–§7.3); roll.go: rolls (§7.4)
//   - move.go: forced movement (§3.7); metric.go: distances for range (§8.2)
//   - board.go, cellset.go, fill.go (§5.1), template.go: validating tokens, obstacles and
//     templates, and the cell set an area is marked in
//   - limits.go, work.go: the limits on a request and on its work, and cancelling (§8.3)
//   - fullattack.go: a full attack (§9), core/fullattack's plan with the engine's errors
