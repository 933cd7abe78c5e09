import type { AsyncCommand } from 'fast-check';
import { checkInvariants } from './invariants.js';
import type { Model, World } from './world.js';

/**
 * A step of the model: an act (HTTP calls as a browser, a provider or an operator make them),
 * then every invariant. A step that ran the due jobs checks them as settled.
 */
export abstract class Step implements AsyncCommand<Model, World> {
  /** The due jobs ran to the end: receipts issued or voided (invariants.ts, 5). */
  readonly settles: boolean = false;
  check(_model: Readonly<Model>): boolean {
    return true;
  }
  abstract act(model: Model, world: World): Promise<void>;
  abstract toString(): string;
  async run(model: Model, world: World): Promise<void> {
    const kind = this.constructor.name;
    world.steps.count++;
    world.steps.kinds.set(kind, (world.steps.kinds.get(kind) ?? 0) + 1);
    await this.act(model, world);
    await checkInvariants(world, { settled: this.settles });
  }
}

/** A step of one listener, who must still have an account to be signed in. */
export abstract class ListenerStep extends Step {
  constructor(readonly user: number) {
    super();
  }
  override check(model: Readonly<Model>): boolean {
    return !model.users[this.user % model.users.length]?.deleted;
  }
}
