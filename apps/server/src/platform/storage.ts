import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** Where photo files live. Local disk by default; an object store can implement the same interface. */
export interface Storage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The bytes, or null when there is no such object. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}

const safeKey = /^[a-z0-9][a-z0-9._/-]{0,200}$/;

export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!safeKey.test(key) || key.includes("..")) throw new Error(`invalid storage key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
