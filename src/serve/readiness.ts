/** An instance's workers as its cluster primary counts them; `stopping` once it drains. */
export interface WorkersReady {
  serving: number;
  workers: number;
  stopping: boolean;
}
