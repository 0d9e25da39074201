import type { FastifyInstance, LightMyRequestResponse } from "fastify";

/**
 * A browser-like client for inject(): keeps cookies between calls, sends JSON, and can pretend to
 * come from another address.
 */
let clients = 0;

export class TestClient {
  readonly cookies = new Map<string, string>();
  /** Each client its own address (from the 198.18.0.0/15 benchmarking range), like separate visitors. */
  readonly address: string;

  constructor(
    private readonly server: FastifyInstance,
    private readonly options: { address?: string; locale?: string } = {},
  ) {
    clients++;
    this.address = options.address ?? `198.18.${(clients >> 8) & 255}.${clients & 255}`;
  }

  /** The same browser talking to another server node: its cookies (shared, not copied) and address. */
  on(server: FastifyInstance): TestClient {
    const other = new TestClient(server, { ...this.options, address: this.address });
    (other as { cookies: Map<string, string> }).cookies = this.cookies;
    return other;
  }

  /** The Cookie header this client sends (for requests made without it, e.g. multipart or WebSocket). */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private remember(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() < Date.now()) || cookie.value === "";
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  async request(method: "GET" | "POST" | "PUT" | "DELETE", url: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await this.server.inject({
      method,
      url,
      remoteAddress: this.address,
      headers: {
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
        ...(this.options.locale ? { "accept-language": this.options.locale } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    this.remember(response);
    return response;
  }

  get = (url: string, headers?: Record<string, string>) => this.request("GET", url, undefined, headers);
  post = (url: string, body: unknown = {}, headers?: Record<string, string>) => this.request("POST", url, body, headers);
  put = (url: string, body: unknown, headers?: Record<string, string>) => this.request("PUT", url, body, headers);
  delete = (url: string, headers?: Record<string, string>) => this.request("DELETE", url, undefined, headers);

  /** A file in a multipart form, as a browser's upload sends it (the photo upload: field `photo`). */
  async upload(
    url: string,
    file: Buffer,
    options: { filename?: string; field?: string; type?: string; headers?: Record<string, string> } = {},
  ) {
    const { filename = "me.jpg", field = "photo", type = "image/jpeg" } = options;
    const boundary = `----test${Math.random().toString(16).slice(2)}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const response = await this.server.inject({
      method: "POST",
      url,
      remoteAddress: this.address,
      headers: {
        "content-type": `multipart/form-data; boundary=${boundary}`,
        ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
        ...(this.options.locale ? { "accept-language": this.options.locale } : {}),
        ...options.headers,
      },
      payload: Buffer.concat([head, file, tail]),
    });
    this.remember(response);
    return response;
  }
}
