#!/usr/bin/env node
// npm run bench:alias-bomb — what a cheap-to-send GraphQL document costs the service to refuse.
//
//  1. CPU time the service spends refusing a 42 KB document of 1,000 aliased root fields:
//     the service's own CPU time (all its threads, from /proc/<pid>/task/*/schedstat, in ns)
//     around each of BOMB_RUNS requests sent one at a time; median and max.
//  2. The latency other clients see while an attacker sends ATTACK_RPS such documents per
//     second (17/s fits under the default rate limit of 1,200 a minute): a victim sends
//     VICTIM_RPS small GraphQL queries per second for SECONDS seconds, without and with the
//     attack; p50 and p99 of the victim's response times.
//
// It runs the built service (dist/) of SERVICE_DIR (default: this repository) on an embedded
// database in a temporary folder, port BENCH_PORT (default 4641), rate limit off (the victim
// and the attacker share one IP here). To compare with another commit, build it in another
// folder (git archive <commit> | tar -x -C DIR; link node_modules; npx tsc -p tsconfig.build.json)
// and run with SERVICE_DIR=DIR. Linux only (schedstat).
import { serviceDir, startBuiltService } from './service.mjs';

const port = Number(process.env.BENCH_PORT ?? 4641);
const bombRuns = Number(process.env.BOMB_RUNS ?? 20);
const attackRps = Number(process.env.ATTACK_RPS ?? 17);
const victimRps = Number(process.env.VICTIM_RPS ?? 20);
const seconds = Number(process.env.SECONDS ?? 10);
const service = await startBuiltService({ serviceDir, port, name: 'alias-bomb' });
const base = service.base;

try {
  const token = await service.token('billing.read billing.write');
  const post = (query) =>
    fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    });

  const bomb = `query { ${Array.from({ length: 1000 }, (_, i) => `a${i}: accounts(first: 1) { nodes { id code name } }`).join(' ')} }`;
  const small = '{ accounts(first: 5) { nodes { id code name } } }';

  const cpuNs = service.cpuNs;

  // Warm up both paths (JIT, caches), then measure the refusal.
  for (let i = 0; i < 5; i++) {
    await (await post(bomb)).text();
    await (await post(small)).text();
  }
  const first = await post(bomb);
  const answer = await first.json();
  const cpu = [];
  for (let i = 0; i < bombRuns; i++) {
    const before = cpuNs();
    const res = await post(bomb);
    await res.text();
    cpu.push((cpuNs() - before) / 1e6);
  }
  cpu.sort((a, b) => a - b);
  const median = (xs) => (xs.length % 2 ? xs[(xs.length - 1) / 2] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2);
  console.log(`service: ${serviceDir}`);
  console.log(
    `document: ${bomb.length} bytes, 1000 aliases; answer HTTP ${first.status} ${answer.errors?.[0]?.extensions?.code}: ${answer.errors?.[0]?.message?.slice(0, 90)}`,
  );
  console.log(
    `CPU to refuse it, ${bombRuns} requests one at a time: median ${median(cpu).toFixed(2)} ms, max ${cpu[cpu.length - 1].toFixed(2)} ms`,
  );

  /** A victim sending `rps` small queries a second for `secs` seconds (each timed alone), optionally under attack. */
  async function victimLatencies(attack) {
    const times = [];
    const pending = [];
    const timers = [];
    const started = performance.now();
    const every = (rps, fn) => {
      let n = 0;
      const tick = () => {
        if (performance.now() - started >= seconds * 1000) return;
        pending.push(fn());
        n += 1;
        timers.push(setTimeout(tick, Math.max(0, started + (n * 1000) / rps - performance.now())));
      };
      tick();
    };
    every(victimRps, async () => {
      const t = performance.now();
      const res = await post(small);
      await res.text();
      if (!res.ok) throw new Error(`victim got HTTP ${res.status}`);
      times.push(performance.now() - t);
    });
    if (attack) every(attackRps, async () => (await post(bomb)).text());
    await new Promise((r) => setTimeout(r, seconds * 1000 + 50));
    await Promise.all(pending);
    timers.forEach(clearTimeout);
    times.sort((a, b) => a - b);
    const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
    return `${times.length} requests, p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms`;
  }
  console.log(`victim, ${victimRps} small queries/s for ${seconds} s, no attack: ${await victimLatencies(false)}`);
  console.log(`victim, same, under ${attackRps} alias-bomb documents/s: ${await victimLatencies(true)}`);
} finally {
  await service.stop();
}
