package api

import (
	"context"
	"sync"
	"time"
)

// A gate admits at most a number of requests into the engine at once; a request that finds
// every slot taken waits its turn, first come first served, for up to wait, in a queue of at
// most maxQueue (issue 29, 6: clients of an HTTP API expect a short queue under ordinary load,
// not an error; 16 clients of a 2-core server got 503s). Past the queue's length, or after
// waiting wait, it is refused.
type gate struct {
	slots    int // how many, for messages
	mu       sync.Mutex
	free     int             // slots free
	queue    []chan struct{} // the requests waiting, oldest first; a slot is handed over by closing one
	maxQueue int
	wait     time.Duration
}

func newGate(slots, maxQueue int, wait time.Duration) *gate {
	return &gate{free: slots, maxQueue: maxQueue, wait: wait}
}

// Why a request was not let in.
const (
	admitted = iota
	queueFull
	waitedOut
	gaveUp // its client went away while it waited
)

// enter takes a slot, waiting for one in turn; leave must follow an admitted enter.
func (g *gate) enter(ctx context.Context) int {
	g.mu.Lock()
	if g.free > 0 && len(g.queue) == 0 {
		g.free--
		g.mu.Unlock()
		return admitted
	}
	if len(g.queue) >= g.maxQueue || g.wait <= 0 {
		g.mu.Unlock()
		return queueFull
	}
	turn := make(chan struct{})
	g.queue = append(g.queue, turn)
	g.mu.Unlock()
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
	why := waitedOut
	select {
	case <-turn:
		return admitted
	case <-timer.C:
	case <-ctx.Done():
		why = gaveUp
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, c := range g.queue {
		if c == turn {
			g.queue = append(g.queue[:i], g.queue[i+1:]...)
			return why
		}
	}
	// Handed a slot as it gave up: it takes it (the slot is its own now).
	return admitted
}

// leave gives a slot back: to the oldest request waiting, or to the free ones.
func (g *gate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) > 0 {
		close(g.queue[0])
		g.queue = g.queue[1:]
		return
	}
	g.free++
}
