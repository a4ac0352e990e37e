import json, sys
# usage: lrtab.py TAG...  -> markdown rows + phase means per summary
for tag in sys.argv[1:]:
    j = json.load(open(f"/tmp/lr-{tag}.json"))
    sums = [json.loads(l) for l in open(f"/tmp/lr-{tag}.log") if '"msg":"summary"' in l]
    n = j["players"]
    full = [s for prev, s in zip(sums, sums[1:]) if prev["players"] >= n*0.99 and s["players"] >= n*0.99]
    per = " · ".join(f'{s["tick_p50_us"]/1000:.1f}/{s["tick_p99_us"]/1000:.1f}' for s in full)
    print(f'| {tag} | {j["tick_p50_ms"]:.1f} | {j["tick_p99_ms"]:.1f} | {per} | {j["server_cpu_cores"]:.2f} | {j["retransmits_per_s"]:.0f} | {j["bot_rtt_p50_ms"]:.0f} | {j["per_player_datagrams_in_s"]:.1f} | {j["server_max_rss_mib"]:.0f} | {j["events_lost"]} | {j["disconnects"] if isinstance(j["disconnects"], int) else sum(j["disconnects"].values()) if isinstance(j["disconnects"], dict) else j["disconnects"]} |')
    ph = " | ".join(f'w{s.get("phases_mean_us",{}).get("world",0)/1000:.1f} f{s.get("phases_mean_us",{}).get("flush",0)/1000:.1f} r{s.get("phases_mean_us",{}).get("receive",0)/1000:.2f} br{s.get("between_receive_us",0)/1e6:.2f}' for s in full)
    print(f'    {tag} {ph}', file=sys.stderr)
