package los

// OpenBlocked is Blocked for the segment a → b without its endpoints (SPEC §10.4: a
// segment's end points never block it). A point-origin area's origin may lie on an edge where
// two solids meet diagonally, or on a solid's face: the segments that leave it are judged by
// the points after it. Every other point is judged as Blocked judges it, so a segment that
// runs on into solid matter, or squeezes between two solids past its start, is blocked. A
// segment of one point is never blocked.
func (p *Prepared) OpenBlocked(a, b Point) bool {
	blocked, _ := checkWalk(a, b, p.s, p.r, p.w, p.l, false, true)
	return blocked
}

// Inside reports whether the point p lies in the interior of the union of the solids of s
// (SPEC §5.2): every one of the eight open octants around it is covered, a face shared by two
// solids included. A point-origin area whose origin lies there is refused (SPEC §10.4).
func (p *Prepared) Inside(q Point) bool {
	if p.s == nil || !q.InRange() {
		return false
	}
	w := walker{s: p.s}
	return w.pointMask([3]int64{q.X, q.Y, q.Z}) == 0xff
}

// OpenBlockedSolids is OpenBlocked by the solids alone: the walls (Walls) are not asked, for a
// caller that has judged them already.
func (p *Prepared) OpenBlockedSolids(a, b Point) bool {
	blocked, _ := checkWalk(a, b, p.s, p.r, nil, p.l, false, true)
	return blocked
}
