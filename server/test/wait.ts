/** Polls `f` every 20 ms until it returns something truthy (returned), or fails naming `what` after `ms`. */
export async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Gates a test opens when it wants held work to go on. `openAll()` in afterEach: a runner's stop
 * waits for the work its gates hold.
 */
export function createGates() {
  const opens: (() => void)[] = [];
  return {
    gate(): { open: () => void; opened: Promise<void> } {
      let open: () => void = () => undefined;
      const opened = new Promise<void>((r) => {
        open = r;
      });
      opens.push(open);
      return { open, opened };
    },
    openAll(): void {
      for (const open of opens.splice(0)) open();
    },
  };
}
