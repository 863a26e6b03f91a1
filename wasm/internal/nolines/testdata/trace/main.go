// Command trace runs what the Go runtime needs its pc tables for (stack growth, the garbage
// collector scanning deep stacks, panics and defers, goroutines) and prints what it reads of
// them (runtime.Callers' frames, FuncForPC): nolines' test runs it before and after Strip.
package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

type node struct {
	next *node
	v    int
}

// deep recurses with a frame of 256 bytes and a pointer on it: the stack grows (and is copied,
// its pointers adjusted through the stack maps) many times, and a collection runs at the bottom.
func deep(n int, keep *node) int {
	var buf [32]int
	buf[n%32] = n
	here := &node{next: keep, v: n}
	if n == 0 {
		runtime.GC()
		s := 0
		for p := here; p != nil; p = p.next {
			s += p.v
		}
		return s
	}
	return deep(n-1, here) + buf[n%32] - n
}

func mayPanic(n int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered %v", r)
		}
	}()
	defer func() { n++ }()
	var m map[string]int
	if n > 2 {
		m["x"] = n // a nil map: a runtime panic
	}
	return errors.New("no panic")
}

func frames() []string {
	pcs := make([]uintptr, 8)
	n := runtime.Callers(1, pcs)
	fr := runtime.CallersFrames(pcs[:n])
	var out []string
	for {
		f, more := fr.Next()
		out = append(out, fmt.Sprintf("frame %s %s:%d", f.Function, filepath.Base(f.File), f.Line))
		if !more || len(out) == 3 {
			return out
		}
	}
}

// crash panics unrecovered: the runtime prints a traceback (through the pc tables) and exits 2.
func crash(n int) int {
	if n == 0 {
		panic("crash asked for")
	}
	return crash(n-1) + 1
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "crash" {
		crash(3)
	}
	fmt.Println("deep", deep(20000, nil))
	fmt.Println("panic", mayPanic(1), mayPanic(5))
	done := make(chan int)
	for g := range 4 {
		go func() { done <- deep(2000*(g+1), nil) }()
	}
	sum := 0
	for range 4 {
		sum += <-done
	}
	fmt.Println("goroutines", sum)
	for _, f := range frames() {
		fmt.Println(f)
	}
	pc, _, _, _ := runtime.Caller(0)
	fn := runtime.FuncForPC(pc)
	file, line := fn.FileLine(pc)
	fmt.Printf("funcforpc %s %s:%d\n", fn.Name(), filepath.Base(file), line)
	fmt.Println("names", strings.Contains(fmt.Sprint(frames()), "main.frames"))
}
