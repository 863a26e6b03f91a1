// Package grid holds the board's integer geometry: cells, the eight directions, facing,
// distances and the spaces entities occupy (SPEC §1).
package grid
