// Package los decides exactly whether a straight segment is blocked by solid matter
// (SPEC §5.1–§5.2).
//
// Points live on the 1/400 lattice (Point, Unit); the board is seen through the Solids
// interface, one fill height per cell. Blocked walks the cells the segment passes through
// with integer arithmetic only: every parameter value is a fraction compared by
// cross-multiplication, so every platform gives the same answer. A Solids may also answer
// Regions (empty boxes, skipped at once), Walls (thin walls) and Layers (a level's cells as
// an array, which a segment at one height reads directly); Prepare looks those up once for
// callers that judge many segments over one board.
package los
