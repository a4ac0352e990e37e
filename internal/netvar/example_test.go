package netvar_test

import (
	"fmt"
	"log/slog"
	"time"

	"dlmp/internal/netvar"
)

// world is the smallest World: two players, nothing streamed.
type world struct{}

func (world) Players() []netvar.PlayerID              { return []netvar.PlayerID{0, 1} }
func (world) UserID(p netvar.PlayerID) uint32         { return uint32(p) + 100 }
func (world) StreamedTo(netvar.Ref) []netvar.PlayerID { return nil }
func (world) Place(netvar.Ref) (netvar.Place, bool)   { return netvar.Place{}, false }

func Example() {
	r := netvar.NewRegistry()
	r.SetLogger(slog.New(slog.DiscardHandler))
	r.Register("cityrp_VehicleLocked").SetVehicle().Bool().Broadcast().
		SetHook("CityRP.VehicleLockChanged").Accessor("VehicleLocked")
	r.Register("_svrank").SetPlayer().String(16).SetDefault("user").
		Filter(func(netvar.Ref, any) []netvar.PlayerID { return []netvar.PlayerID{0} }) // staff only
	r.Seal()

	send := func(to netvar.PlayerID, m netvar.Message, payload []byte) {
		fmt.Printf("to %d: message %d, %d bytes\n", to, m, len(payload))
	}
	st, _ := netvar.NewStore(r, world{}, send, netvar.Config{})
	st.Handshake(0)
	st.Handshake(1)
	now := time.Unix(0, 0)
	st.Set(now, netvar.Ref{Kind: netvar.KindVehicle, ID: 7}, "cityrp_VehicleLocked", true)
	st.Set(now, netvar.PlayerRef(1), "_svrank", "admin")
	fmt.Println(st.Get(netvar.PlayerRef(1), "_svrank"))
	// Output:
	// to 0: message 1, 50 bytes
	// to 1: message 1, 50 bytes
	// to 0: message 3, 3 bytes
	// to 1: message 3, 3 bytes
	// to 0: message 3, 12 bytes
	// admin
}
