import { describe, expect, it } from "vitest";
import { notificationEmail } from "./emails.ts";

const frame = { site: "Amoria", recipient: "Marc", link: "https://site.test/chats/1", settingsUrl: "https://site.test/settings" };

describe("a notification e-mail names the sender as the language wants it (issue #29)", () => {
  it("elides the French 'de' before a vowel and keeps it before a consonant", () => {
    const anna = notificationEmail({ ...frame, locale: "fr", template: "new_messages", name: "Anna", count: 2 });
    expect(anna.subject).toBe("2 nouveaux messages d'Anna");
    const marc = notificationEmail({ ...frame, locale: "fr", template: "new_conversation", name: "Marc", count: 1 });
    expect(marc.text).toContain("Vous avez 1 message non lu de Marc.");
    const emile = notificationEmail({ ...frame, locale: "fr", template: "new_conversation", name: "Émile", count: 1 });
    expect(emile.text).toContain("Vous avez 1 message non lu d'Émile.");
  });

  it("keeps the Polish sender in the nominative", () => {
    const mail = notificationEmail({ ...frame, locale: "pl", template: "new_messages", name: "Anna", count: 1 });
    expect(mail.subject).toBe("Anna: 1 nowa wiadomość");
    expect(mail.text).toContain("Anna czeka na odpowiedź: w Waszej rozmowie jest 1 nieprzeczytana wiadomość.");
  });
});
