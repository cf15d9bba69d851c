/** Lets idle worker loops sleep until a timeout or until woken (a local enqueue, shutdown). */
export interface IdleWaiter {
  wait(ms: number): Promise<void>;
  wakeAll(): void;
}

export function createIdleWaiter(): IdleWaiter {
  const sleepers = new Set<() => void>();
  return {
    wait(ms) {
      return new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          sleepers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        sleepers.add(wake);
      });
    },
    wakeAll() {
      for (const wake of [...sleepers]) wake();
    },
  };
}
