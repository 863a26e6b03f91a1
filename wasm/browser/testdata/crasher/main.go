//go:build js && wasm

// Command crasher is a stand-in for aoekit.wasm that fails on purpose, for the loader's tests
// (web/test): it registers the module's functions on the loader's handshake object, and
//   - version answers {"engine": "crasher", "calls": n}, n counting calls on this instance;
//   - evaluate recurses until the JavaScript stack overflows (a RangeError out of the module);
//   - move exits the Go program;
//   - parse answers a number, which no aoekit function does;
//   - evaluateCells answers an empty Uint8Array, as aoekit.wasm does for no cells;
//   - cover answers a cover result with no lines;
//   - fullAttack answers a full attack with no steps;
//   - sceneNew answers the id 1, sceneUpdate and sceneDispose null, sceneEvaluateCells an empty
//     Uint8Array, and sceneEvaluate exits the Go program (its scenes go with it);
//
// and, as aoekit.wasm, sets maxBody. A goroutine sleeps in a loop, so that the instance always
// has a timer scheduled with the host (the Go runtime's own background work does the same, at
// times): when the program dies, that timer is still pending.
package main

import (
	"os"
	"strconv"
	"syscall/js"
	"time"

	"github.com/aoekit/aoekit/wasm/internal/limits"
)

var calls int

func main() {
	t := js.Global().Get("__aoekit")
	set := func(name string, f func() any) {
		t.Set(name, js.FuncOf(func(js.Value, []js.Value) any { return f() }))
	}
	set("version", func() any {
		calls++
		return `{"engine":"crasher","calls":` + strconv.Itoa(calls) + `}`
	})
	set("evaluate", func() any { return deep(0) })
	set("move", func() any { os.Exit(3); return nil })
	set("parse", func() any { return 42 })
	set("evaluateCells", func() any { return js.Global().Get("Uint8Array").New(0) })
	set("cover", func() any {
		return `{"grade":"none","bonus":0,"blocked":0,"total":0,"lineOfEffect":false,"from":[0,0,0],"lines":[]}`
	})
	set("fullAttack", func() any { return `{"steps":[],"next":[]}` })
	set("sceneNew", func() any { return "1" })
	set("sceneUpdate", func() any { return "null" })
	set("sceneEvaluate", func() any { os.Exit(4); return nil })
	set("sceneEvaluateCells", func() any { return js.Global().Get("Uint8Array").New(0) })
	set("sceneDispose", func() any { return "null" })
	t.Set("maxBody", limits.MaxBody)
	go func() {
		for {
			time.Sleep(20 * time.Millisecond)
		}
	}()
	select {}
}

func deep(n int) int { return deep(n+1) + 1 }
