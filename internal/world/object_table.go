package world

// objectTable holds the objects by id, in place (decision 0363): chunks of
// objectChunk Objects, object id i at chunks[i/objectChunk].objs[i%objectChunk].
// A show, a cut test or a chain's expansion finds an object from its id
// with the chunk table (tens of kilobytes, cached: one entry per
// objectChunk objects) and reads the object: one miss, where a table of
// a pointer per id took two (the pointer's, then the object's).
//
// Ids are never reused (CreateObject), so a slot is filled once: a
// deleted object keeps its slot, marked not live, and a pointer to it
// held anywhere still reads its id, model and pose. A chunk whose every slot was
// filled and deleted is dropped from the table (the garbage collector
// frees it once nothing points into it).
//
// The chunks are slices, not pointers to arrays: indexing a slice checks
// the index against the length in the chunk table, where a pointer to an
// array is checked for nil by a load from the chunk itself (its first
// line, on a page of its own: a cache and TLB miss a show, measured).
//
// The table is one slice (as the pointer table it replaced), so that the
// fields after it in entities keep their offsets.
type objectTable struct {
	chunks []objectChunkOf // [0] holds id 0, never an object
}

// objectChunkOf is one chunk: objectChunk objects, or nil once dropped.
type objectChunkOf struct {
	objs []Object
	live int32 // its objects not deleted
}

const (
	objectChunkBits = 10
	objectChunk     = 1 << objectChunkBits // objects a chunk, 128 KiB
)

// at returns the object with the id, which must be live (an id from a grid,
// a view or a chain): no check.
func (t *objectTable) at(id uint32) *Object {
	return &t.chunks[id>>objectChunkBits].objs[id&(objectChunk-1)]
}

// get returns the live object with the id, or nil.
func (t *objectTable) get(id uint32) *Object {
	i := int(id >> objectChunkBits)
	if id == 0 || i >= len(t.chunks) || t.chunks[i].objs == nil {
		return nil
	}
	o := &t.chunks[i].objs[id&(objectChunk-1)]
	if !o.live {
		return nil
	}
	return o
}

// add stores o as the object of its id, the next id of the table (every
// lower id added before), and returns the stored object.
func (t *objectTable) add(o Object) *Object {
	i := int(o.id >> objectChunkBits)
	for len(t.chunks) <= i {
		t.chunks = append(t.chunks, objectChunkOf{objs: make([]Object, objectChunk)})
	}
	c := &t.chunks[i]
	s := &c.objs[o.id&(objectChunk-1)]
	*s = o
	s.live = true
	c.live++
	return s
}

// remove marks the live object o deleted; next is the id the next add
// takes (a chunk below it is filled: once empty, it is dropped). Its
// pointers are cleared, so that a slot kept for its chunk's other
// objects keeps nothing else alive (a viewer that left, a movement).
func (t *objectTable) remove(o *Object, next uint32) {
	o.live = false
	o.mv, o.viewer, o.parent, o.children = nil, nil, nil, nil
	i := int(o.id >> objectChunkBits)
	c := &t.chunks[i]
	c.live--
	if c.live == 0 && uint32(i+1)<<objectChunkBits <= next {
		c.objs = nil
	}
}

// each calls f with every live object, by id.
func (t *objectTable) each(f func(*Object)) {
	for _, c := range t.chunks {
		for j := range c.objs {
			if o := &c.objs[j]; o.live {
				f(o)
			}
		}
	}
}
