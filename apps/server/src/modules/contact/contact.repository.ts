import type { Db } from '../../db/client.ts';
import { contactRequests } from '../../db/schema.ts';

export type NewContactRequest = typeof contactRequests.$inferInsert;

/** Contact, DMCA, content-removal and billing requests. Queries only. */
export class ContactRepository {
  constructor(private readonly db: Db) {}

  async create(row: NewContactRequest): Promise<string> {
    const [created] = await this.db.insert(contactRequests).values(row).returning({ id: contactRequests.id });
    return created!.id;
  }
}
