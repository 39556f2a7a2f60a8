/** The median wall and CPU milliseconds of `repeat` calls of `fn`, and its last answer: the console benches' one measure. */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function timed(repeat, fn) {
  const wall = [];
  const cpu = [];
  let out;
  for (let i = 0; i < repeat; i++) {
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    out = await fn();
    wall.push(performance.now() - w0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu), out };
}
