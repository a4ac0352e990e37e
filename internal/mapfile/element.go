package mapfile

import "strings"

// The decoders of the MTA:SA elements the server knows. Each reads its
// attributes with the MTA:SA defaults, checks them, and returns the first
// rule broken.

func decodeObject(r *attrReader, line int) (Object, *fieldError) {
	o := Object{Line: line, ID: r.str("id"), Scale: 1, Collisions: true, Alpha: 255, Breakable: true}
	o.Model = r.requiredInt("model")
	if r.err == nil {
		r.check(checkObjectModel("model", o.Model))
	}
	o.Place = r.place(MaxXY)
	o.Rot = r.vec(&rotNames)
	o.Scale = r.float("scale", 1)
	o.Collisions = r.bool("collisions", true)
	alpha := r.int("alpha", 255)
	o.DoubleSided = r.bool("doublesided", false)
	o.Breakable = r.bool("breakable", true)
	if r.err == nil {
		r.check(checkRot(&rotNames, o.Rot))
		r.check(checkScale("scale", o.Scale))
		r.check(checkRange("alpha", alpha, 0, 255))
	}
	o.Alpha = uint8(alpha)
	return o, r.err
}

// decodePickup reads type "health", "armor", "custom" or a weapon id (the
// MTA:SA map format); amount is also read from the old name "ammo".
func decodePickup(r *attrReader, line int) (Pickup, *fieldError) {
	p := Pickup{Line: line, ID: r.str("id"), SAMPType: -1}
	typ, _ := r.required("type")
	switch strings.ToLower(typ) {
	case "":
	case "health":
		p.Kind, p.Model = PickupHealth, HealthModel
	case "armor", "armour":
		p.Kind, p.Model = PickupArmor, ArmorModel
	case "custom":
		p.Kind = PickupCustom
		p.Model = r.requiredInt("model")
		if r.err == nil {
			r.check(checkObjectModel("model", p.Model))
		}
	default:
		w, err := parseInt("type", typ)
		if err != nil {
			r.check(errField("type", "%q is not health, armor, custom or a weapon id", typ))
			break
		}
		m, ok := WeaponModel(w)
		if !ok {
			r.check(errField("type", "%d is not a weapon id with a model (1..18, 22..46)", w))
		}
		p.Kind, p.Weapon, p.Model = PickupWeapon, w, m
	}
	if _, ok := r.get("amount"); ok {
		p.Amount = r.int("amount", 0)
	} else {
		p.Amount = r.int("ammo", 0)
	}
	p.Respawn = r.int("respawn", 0)
	p.Place = r.place(MaxPickupXY)
	if r.err == nil {
		r.check(checkRange("amount", p.Amount, 0, 1<<30))
		r.check(checkRange("respawn", p.Respawn, 0, 1<<30))
	}
	return p, r.err
}

func decodeMarker(r *attrReader, line int) (Marker, *fieldError) {
	m := Marker{Line: line, ID: r.str("id"), Kind: MarkerCheckpoint, Size: 4, Color: Color{0, 0, 255, 255}}
	if typ, ok := r.get("type"); ok {
		found := false
		for i, name := range markerKinds {
			if strings.EqualFold(typ, name) {
				m.Kind, found = MarkerKind(i), true
			}
		}
		if !found {
			r.check(errField("type", "%q is not cylinder, checkpoint, ring, arrow or corona", typ))
		}
	}
	m.Size = r.float("size", 4)
	m.Color = r.color("color", m.Color)
	m.Place = r.place(MaxXY)
	if r.err == nil && !(m.Size > 0 && m.Size <= 100) {
		r.check(errField("size", "%g is outside (0, 100]", m.Size))
	}
	return m, r.err
}

func decodeBlip(r *attrReader, line int) (Blip, *fieldError) {
	b := Blip{Line: line, ID: r.str("id")}
	b.Icon = r.int("icon", 0)
	b.Size = r.int("size", 2)
	b.Color = r.color("color", Color{255, 0, 0, 255})
	b.Range = r.float("visibleDistance", 0)
	b.Place = r.place(MaxXY)
	if r.err == nil {
		r.check(checkRange("icon", b.Icon, 0, MaxIcon))
		r.check(checkRange("size", b.Size, 0, 25))
		if b.Range < 0 {
			r.check(errField("visibleDistance", "%g is below 0", b.Range))
		}
	}
	return b, r.err
}

// decodeZone reads a radararea: posX, posY is one corner, sizeX, sizeY the
// extent (either sign) to the opposite one.
func decodeZone(r *attrReader, line int) (Zone, *fieldError) {
	z := Zone{Line: line, ID: r.str("id")}
	x, y := r.float("posX", 0), r.float("posY", 0)
	sx, sy := r.float("sizeX", 0), r.float("sizeY", 0)
	z.Color = r.color("color", Color{255, 0, 0, 255})
	z.Interior, z.World = r.int("interior", 0), r.int("dimension", 0)
	z.MinX, z.MaxX = min(x, x+sx), max(x, x+sx)
	z.MinY, z.MaxY = min(y, y+sy), max(y, y+sy)
	z.Pos = Vec3{x, y, 0}
	if r.err != nil {
		return z, r.err
	}
	switch {
	case sx == 0:
		r.check(errField("sizeX", "0 makes an empty rectangle"))
	case sy == 0:
		r.check(errField("sizeY", "0 makes an empty rectangle"))
	case z.MinX < -MaxXY || z.MaxX > MaxXY:
		r.check(errField("sizeX", "the rectangle %g..%g leaves the world bounds |x| ≤ %d", z.MinX, z.MaxX, MaxXY))
	case z.MinY < -MaxXY || z.MaxY > MaxXY:
		r.check(errField("sizeY", "the rectangle %g..%g leaves the world bounds |y| ≤ %d", z.MinY, z.MaxY, MaxXY))
	}
	r.check(checkRange("interior", z.Interior, 0, MaxInterior))
	r.check(checkRange("dimension", z.World, AllWorlds, MaxWorld))
	return z, r.err
}

func decodeVehicle(r *attrReader, line int) (Vehicle, *fieldError) {
	v := Vehicle{Line: line, ID: r.str("id"), Plate: r.str("plate")}
	v.Model = r.requiredInt("model")
	if r.err == nil {
		r.check(checkVehicleModel("model", v.Model))
	}
	v.Place = r.place(MaxXY)
	v.Rot = r.vec(&rotNames)
	v.Colors = r.intList("color", 0, 255)
	v.Paintjob = r.int("paintjob", 3)
	v.Upgrades = r.intList("upgrades", 1000, 1193)
	if r.err == nil {
		r.check(checkRot(&rotNames, v.Rot))
		r.check(checkRange("paintjob", v.Paintjob, 0, 3))
	}
	return v, r.err
}
