package main

import (
	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/wire"
)

// A handler answers one request body with JSON (or, for evaluateCells, packed cells).
type handler func(body []byte) ([]byte, *engine.Error)

// An export is one function the module offers JavaScript.
type export struct {
	name   string
	handle handler
	packed bool // the answer is bytes for a Uint8Array, not JSON text
}

// exports lists what the module registers.
var exports = []export{
	{name: "parse", handle: wire.Parse},
	{name: "evaluate", handle: wire.Evaluate},
	{name: "evaluateCells", handle: evaluateCells, packed: true},
	{name: "move", handle: wire.Move},
	{name: "cover", handle: wire.Cover},
	{name: "fullAttack", handle: wire.FullAttack},
	{name: "version", handle: func([]byte) ([]byte, *engine.Error) { return wire.Version(), nil }},
}

// call runs h on body and returns its answer or its error, never both; a panic in h becomes an
// internal error, and so does an answer of neither.
func call(h handler, body []byte) (out []byte, err *engine.Error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, wire.Recovered(r)
		}
	}()
	out, err = h(body)
	switch {
	case err != nil:
		return nil, err
	case out == nil:
		return nil, wire.InternalError("no answer")
	}
	return out, nil
}

// evaluateCells answers an evaluate request with the cells of its result, packed by packCells.
// Its errors are those of wire.Evaluate for the same body.
func evaluateCells(body []byte) ([]byte, *engine.Error) {
	res, err := wire.EvaluateResult(body)
	if err != nil {
		return nil, err
	}
	return packCells(res.Cells), nil
}

// packCells writes cells as consecutive x, y, z little-endian int32s: 12 bytes a cell, the
// memory of an Int32Array on a little-endian host (every WebAssembly host but s390x).
func packCells(cells [][3]int32) []byte {
	b := make([]byte, 0, 12*len(cells))
	for _, c := range cells {
		for _, v := range c {
			u := uint32(v)
			b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
		}
	}
	return b
}
