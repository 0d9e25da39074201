import { hash, verify } from "@node-rs/argon2";
import type { Db } from "../../platform/db/index.ts";
import { findUserByEmail, insertUser, type NewUser, type UserRow, visibleUserIdsSql } from "./queries.ts";

/** OWASP's argon2id recommendation: 19 MiB memory, 2 iterations, 1 lane. */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class AccountService {
  constructor(private readonly db: Db) {}

  hashPassword(password: string): Promise<string> {
    return hash(password, ARGON2_OPTIONS);
  }

  verifyPassword(passwordHash: string, password: string): Promise<boolean> {
    return verify(passwordHash, password);
  }

  /** A SQL subquery of the ids of members others may see (for other modules' queries). */
  visibleUserIds() {
    return visibleUserIdsSql(this.db);
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return findUserByEmail(this.db, email);
  }

  create(row: NewUser): Promise<UserRow> {
    return insertUser(this.db, { ...row, email: row.email?.toLowerCase() ?? null });
  }
}
