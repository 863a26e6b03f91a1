package engine

// Limits on one request (SPEC §8.3). Past any of them the answer is a too_large error.
const (
	MaxTokens    = 10000
	MaxObstacles = 250000
	MaxCoord     = 1000000 // largest |x|, |y|, |z| of any cell
	MaxPath      = 1000    // squares in a path
	MaxSize      = 100     // largest token size or height
	MaxDistance  = 1000    // largest forced-movement distance
	MaxExclude   = 100000  // excluded cells
)
