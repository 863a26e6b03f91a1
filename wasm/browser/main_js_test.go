//go:build js && wasm

package main

import (
	"syscall/js"
	"testing"
)

func TestTargetIsTheHandshakeObject(t *testing.T) {
	g := js.Global()
	defer g.Delete(handshake)
	defer g.Delete("aoekit")
	o := g.Get("Object").New()
	g.Set(handshake, o)
	if !target().Equal(o) || !g.Get("aoekit").IsUndefined() {
		t.Error("target() did not return the handshake object")
	}
	g.Delete(handshake)
	if t2 := target(); t2.Type() != js.TypeObject || !g.Get("aoekit").Equal(t2) {
		t.Error("without a handshake, target() is not a new globalThis.aoekit")
	}
}
