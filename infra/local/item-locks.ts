/**
 * Which items the embedded DynamoDB is working on, so that concurrent requests meet as they do in
 * DynamoDB: a transaction holds every item it touches while it runs; another transaction that needs one
 * of them is cancelled (TransactionConflict), and so is a plain write to one of them
 * (TransactionConflictException). Plain writes of one item do not conflict with each other; a transaction
 * that needs an item a plain write is busy with is cancelled too. Reads of a held item wait for the
 * transaction to finish, so they never see half of it (DynamoDB's reads are serializable with
 * transactions).
 */
interface Holder {
  transaction: symbol | null;
  writers: number;
  released: Promise<void>;
  release: () => void;
}

export class ItemLocks {
  private readonly items = new Map<string, Holder>();

  private holder(id: string): Holder {
    let holder = this.items.get(id);
    if (!holder) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holder = { transaction: null, writers: 0, released, release };
      this.items.set(id, holder);
    }
    return holder;
  }

  private drop(id: string): void {
    const holder = this.items.get(id);
    if (holder && !holder.transaction && holder.writers === 0) {
      this.items.delete(id);
      holder.release();
    }
  }

  /** The positions of the items someone else is using; when none, the transaction now holds them all. */
  claim(ids: readonly string[], transaction: symbol): number[] {
    const busy = ids.flatMap((id, i) => {
      const holder = this.items.get(id);
      return holder && (holder.writers > 0 || (holder.transaction && holder.transaction !== transaction))
        ? [i]
        : [];
    });
    if (busy.length === 0) for (const id of ids) this.holder(id).transaction = transaction;
    return busy;
  }

  /** The positions of the items a transaction holds (for a TransactGetItems, which takes no lock). */
  heldByTransactions(ids: readonly string[]): number[] {
    return ids.flatMap((id, i) => (this.items.get(id)?.transaction ? [i] : []));
  }

  releaseAll(ids: readonly string[], transaction: symbol): void {
    for (const id of ids) {
      const holder = this.items.get(id);
      if (holder?.transaction === transaction) holder.transaction = null;
      this.drop(id);
    }
  }

  /** Starts plain writes of these items: false (and nothing started) while a transaction holds one. */
  beginWrites(ids: readonly string[]): boolean {
    if (ids.some((id) => this.items.get(id)?.transaction)) return false;
    for (const id of ids) this.holder(id).writers++;
    return true;
  }

  endWrites(ids: readonly string[]): void {
    for (const id of ids) {
      const holder = this.items.get(id);
      if (holder) holder.writers--;
      this.drop(id);
    }
  }

  /** Resolves once no transaction holds any of these items. */
  async whenFree(ids: readonly string[]): Promise<void> {
    for (;;) {
      const busy = ids.map((id) => this.items.get(id)).find((holder) => holder?.transaction);
      if (!busy) return;
      await busy.released;
    }
  }
}
