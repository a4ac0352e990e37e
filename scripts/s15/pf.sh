#!/usr/bin/env bash
# /tmp/pf.sh START END: probe, main run (qN), probe, prefault run (pfN)
for i in $(seq $1 $2); do
  p1=$(/tmp/w1.test -test.run '^$' -test.bench 'CrowdCrossingAt50Hz/crossing-cold' -test.benchtime 1500x 2>&1 | awk '/Benchmark/{print $5}')
  t=$(date +%H:%M:%S)
  /tmp/lr.sh /work/main q$i
  r1=$(python3 -c "import json;j=json.load(open('/tmp/lr-q$i.json'));print(j['tick_p50_ms'], j['tick_p99_ms'], j['server_cpu_cores'], j['minor_faults_per_s'], j['fault_ticks'])")
  echo "q$i $t probe $p1 main $r1" >> /tmp/pf.log
  p2=$(/tmp/w1.test -test.run '^$' -test.bench 'CrowdCrossingAt50Hz/crossing-cold' -test.benchtime 1500x 2>&1 | awk '/Benchmark/{print $5}')
  t=$(date +%H:%M:%S)
  GODEBUG=madvdontneed=0 DLMP_PREFAULT_MB=320 /tmp/lr.sh /work/wt/prefault pf$i
  r2=$(python3 -c "import json;j=json.load(open('/tmp/lr-pf$i.json'));print(j['tick_p50_ms'], j['tick_p99_ms'], j['server_cpu_cores'], j['minor_faults_per_s'], j['fault_ticks'])")
  echo "pf$i $t probe $p2 prefault $r2" >> /tmp/pf.log
done
