// Package engine answers whole CONTRACT requests — evaluate a template on a board, move a
// creature — with the CONTRACT result types. Its types carry JSON tags; the codec itself lives
// at the edge (wasm/wire).
package engine
