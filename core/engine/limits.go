package engine

// Limits on one request (SPEC §8.3). Past one of them the answer is a too_large error, but for
// MaxSize and MaxDistance: a token's size or height, or a forced movement's distance, past them
// is a value outside its allowed values, a bad_request.
const (
	MaxTokens    = 10000
	MaxObstacles = 250000
	MaxWalls     = 10000   // thin walls (SPEC §5.6)
	MaxCoord     = 1000000 // largest |x|, |y|, |z| of any cell
	MaxPath      = 1000    // squares in a path
	MaxSize      = 100     // largest token size or height
	MaxDistance  = 1000    // largest forced-movement distance
	MaxExclude   = 100000  // excluded cells
	// MaxLines is the most cover lines one evaluation's answer holds, over all its targets: a
	// line is some 56 bytes in memory and up to 120 in JSON. Each of 8 tokens of size 100 has
	// 119 401; under the work limit alone, a 491-byte request answered 66 MB of JSON.
	MaxLines = 1 << 17
)

// Limits on the work of one evaluation (SPEC §8.3): a bound on what a request costs, not only
// on its size. Before each costly step the engine reckons the most work that step can take
// and refuses the request (too_large, naming the step) when the request's work so far and that
// step's pass MaxWork. A step of work is about as long as one step of a line-of-effect walk
// (crossing into the next cell, some 8 ns on a 2020s server core). The steps reckoned are
//
//   - line of effect to the origin square (SPEC §3.1) and to each cell of an area cut by
//     barriers (§3.2): per check, its segments (one, or Draw Steel's corners of the two spaces,
//     §5.3), each segCost steps plus one per cell of the box around both spaces along each
//     axis — or segCost alone when no solid lies in or next to that box (los.Check then
//     answers at once). An area is first reckoned at once, as the cells it will walk (with
//     bounds: those of its box inside them and the tokens') each crossing the whole box
//     around it and the source; only past the limit is each cell reckoned. Cells no segment
//     can reach (a caster boxed in by full obstacles) are taken out first when that brings
//     the work under the limit;
//   - finding the tokens in the area (§7.1): per token, the rows of the area it meets and
//     the cells of the area's columns inside its space;
//   - cover (§5.4): per token in the area, its segments, reckoned as line of effect's.
//
// The rest of an evaluation is bounded by the sizes above (MaxCells, MaxTokens, MaxObstacles
// …): placing and marking the area, the 50 % circle's fill (§4.3, some 26 looks a cell),
// listing the cells, validating the request, and the shared line of effect of a Draw Steel
// area or a TDGS one with barriers (core/shadow), built only for an area whose box has at most
// shadowMax squares, from at most shadow.MaxPieces pieces of walls: it decides segments before
// they are walked, and the walks it spares stay reckoned. On the machine the limit was set on, a request
// at MaxWork in the costliest mix answers in about a second.
const (
	MaxWork  = 60_000_000 // steps of work, as above
	segCost  = 8          // steps a segment costs besides its walk: its set-up
	lineCost = 50         // steps a cover line costs in a result: its memory, its JSON
)
