#!/usr/bin/env python3
# s16tab.py LOG...: markdown rows for session 16's load runs, from /tmp/lr-TAG.json/.log and the
# series logs' lines "TAG HH:MM ... | <mprobe line> | w1 <probe-ms> <p99>"
import json, re, sys
for logf in sys.argv[1:]:
    for line in open(logf):
        f = line.split()
        tag, hhmm = f[0], f[1]
        m = re.search(r"w1 ([0-9.]+)", line)
        probe = m.group(1)[:4] if m else "—"
        j = json.load(open(f"/tmp/lr-{tag}.json"))
        sums = [json.loads(l) for l in open(f"/tmp/lr-{tag}.log") if '"msg":"summary"' in l]
        n = j["players"]
        full = [s for p, s in zip(sums, sums[1:]) if p["players"] >= n * .99 and s["players"] >= n * .99]
        per = " · ".join(f'{s["tick_p50_us"]/1000:.1f}/{s["tick_p99_us"]/1000:.1f}' for s in full)
        arm = "writer FIFO" if j.get("writer_thread", "ordinary") != "ordinary" else ""
        note = {"h": f'{j["tick_hz"]} Hz'}.get(tag[0], "")
        print(f'| {tag} | {hhmm} | {probe} | {j["tick_p50_ms"]:.1f} | {j["tick_p99_ms"]:.1f} | {per} | {j["server_cpu_cores"]:.2f} | {j["retransmits_per_s"]:.0f} | {j["bot_rtt_p50_ms"]:.0f} | {j["server_max_rss_mib"]:.0f} | {j["minor_faults_per_s"]:.0f} | {j["fault_ticks"]} | {j["unreliable_dropped"]} | {j["events_lost"]} | {len(j["disconnects"])} |')
