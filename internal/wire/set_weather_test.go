package wire

import "testing"

func validSetWeather() Packet { return &SetWeather{EventID: 8, Weather: 10} }

func TestSetWeatherExample(t *testing.T) {
	checkExample(t, "set_weather.bin", validSetWeather())
	checkTruncated(t, validSetWeather().Append(nil), func() Packet { return new(SetWeather) })
}

func TestSetWeatherRules(t *testing.T) {
	cases := []ruleCase{
		{"weather 0", func(p Packet) { p.(*SetWeather).Weather = 0 }, ""},
		{"weather 22", func(p Packet) { p.(*SetWeather).Weather = 22 }, ""},
		{"weather 23", func(p Packet) { p.(*SetWeather).Weather = 23 }, "weather"},
		{"weather 255", func(p Packet) { p.(*SetWeather).Weather = 255 }, "weather"},
	}
	checkRules(t, "server", validSetWeather, send, cases)
	checkRules(t, "client", validSetWeather, recv, cases)
}

func FuzzSetWeather(f *testing.F) {
	f.Add(validSetWeather().Append(nil))
	f.Add([]byte{IDSetWeather, 1, 0, 0, 0, 23})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(SetWeather) }) })
}

func BenchmarkSetWeather(b *testing.B) {
	benchCodec(b, validSetWeather(), func() Packet { return new(SetWeather) })
}
