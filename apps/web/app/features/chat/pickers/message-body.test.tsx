import type { ChatMessage } from "@app/contract";
import { act, fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { MessageBody } from "./message-body";
import { renderInLocale } from "./test-render";

type Body = Pick<ChatMessage, "kind" | "text" | "photo" | "gift" | "gif">;
const text = (value: string): Body => ({ kind: "text", text: value, photo: null, gift: null, gif: null });

describe("message body", () => {
  it("shows a text as plain text: markup stays literal, nothing becomes a link, line breaks are kept", () => {
    const { container } = renderInLocale(
      <MessageBody message={text("<b>x</b> and <script>alert(1)</script>\nsee https://example.com")} name="Bea" />,
    );
    const paragraph = container.querySelector("p") as HTMLParagraphElement;
    expect(paragraph.textContent).toBe("<b>x</b> and <script>alert(1)</script>\nsee https://example.com");
    expect(paragraph.children).toHaveLength(0);
    expect(container.querySelector("b, script, a")).toBeNull();
    expect(paragraph).toHaveClass("chat-message-text");
  });

  it("shows a photo with its size and description, and opens it full size", async () => {
    renderInLocale(
      <MessageBody
        message={{ kind: "photo", text: "", photo: { url: "/chat-photo/5.jpg", width: 800, height: 600 }, gift: null, gif: null }}
        name="Bea"
      />,
    );
    const photo = screen.getByRole("img", { name: "Photo from Bea" });
    expect(photo).toHaveAttribute("src", "/chat-photo/5.jpg");
    expect(photo).toHaveAttribute("width", "800");
    expect(photo).toHaveAttribute("height", "600");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Photo from Bea" })));
    const lightbox = await screen.findByRole("dialog", { name: "Photo from Bea" });
    expect(within(lightbox).getByRole("img", { name: "Photo from Bea" })).toHaveAttribute("src", "/chat-photo/5.jpg");
    await act(async () => fireEvent.click(within(lightbox).getByRole("button", { name: "Close" })));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("names a gift in the interface language, with its text", () => {
    const { container } = renderInLocale(
      <MessageBody
        message={{
          kind: "gift",
          text: "Voor jou",
          photo: null,
          gift: { id: "sunflower", image_url: "/gifts/sunflower.png" },
          gif: null,
        }}
        name="Bea"
      />,
      "nl",
    );
    const figure = container.querySelector("figure") as HTMLElement;
    expect(figure).toHaveTextContent("Cadeau");
    expect(figure).toHaveTextContent("Zonnebloem");
    expect(figure.querySelector("img")).toHaveAttribute("src", "/gifts/sunflower.png");
    expect(container).toHaveTextContent("Voor jou");
  });

  it("shows a GIF with its title, size and a GIF label", () => {
    const { container } = renderInLocale(
      <MessageBody
        message={{
          kind: "gif",
          text: "",
          photo: null,
          gift: null,
          gif: {
            id: "wave",
            title: "Waving hello",
            url: "/gifs/wave.gif",
            preview_url: "/gifs/wave-s.gif",
            width: 320,
            height: 240,
          },
        }}
        name="Bea"
      />,
    );
    const image = screen.getByRole("img", { name: "Waving hello" });
    expect(image).toHaveAttribute("src", "/gifs/wave.gif");
    expect(image).toHaveAttribute("width", "320");
    expect(image).toHaveAttribute("height", "240");
    expect(container.querySelector("figcaption")).toHaveTextContent("GIF");
  });

  it("falls back to the text when a message's photo, gift or GIF is missing", () => {
    renderInLocale(<MessageBody message={{ ...text("Hello"), kind: "photo" }} name="Bea" />);
    expect(screen.getByText("Hello")).toBeInTheDocument();
    expect(screen.queryByRole("img")).toBeNull();
  });
});
