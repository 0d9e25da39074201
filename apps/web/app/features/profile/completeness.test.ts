import type { Photo } from "@app/contract";
import { describe, expect, it } from "vitest";
import { profileCompleteness } from "./completeness";
import { testOwnProfile } from "./test-profiles";

const photo: Photo = {
  id: 1,
  url: "/cdn/1.jpg",
  thumb_url: "/cdn/1-thumb.jpg",
  status: "active",
  rejection_reason: null,
  is_main: true,
  private: false,
  position: 0,
};

const bare = testOwnProfile({
  photos: [],
  about: "",
  interests: [],
  city: null,
  relationship_status: null,
  hair_color: null,
  eye_color: null,
  body_type: null,
  tattoos: null,
});

describe("profile completeness (issue #29)", () => {
  it("starts at 0% with adding a photo as the next step", () => {
    expect(profileCompleteness(bare)).toMatchObject({ percent: 0, next: { id: "photo" } });
  });

  it("leads through photo, about text, interests, location and details, most important first", () => {
    let profile = { ...bare, photos: [photo] };
    expect(profileCompleteness(profile)).toMatchObject({ percent: 30, next: { id: "about" } });
    profile = { ...profile, about: "Hiking and coffee." };
    expect(profileCompleteness(profile)).toMatchObject({ percent: 55, next: { id: "interests" } });
    // One interest is a third of the way: the step stays until there are three.
    profile = { ...profile, interests: ["music"] };
    expect(profileCompleteness(profile)).toMatchObject({ percent: 62, next: { id: "interests" } });
    profile = { ...profile, interests: ["music", "wine", "gym"] };
    expect(profileCompleteness(profile)).toMatchObject({ percent: 75, next: { id: "location" } });
    profile = { ...profile, city: "Utrecht" };
    expect(profileCompleteness(profile)).toMatchObject({ percent: 85, next: { id: "details" } });
    profile = { ...profile, relationship_status: "single", hair_color: "brown", eye_color: "blue", body_type: "slim" };
    expect(profileCompleteness(profile)).toMatchObject({ percent: 97, next: { id: "details" } });
    expect(profileCompleteness({ ...profile, tattoos: false })).toEqual({ percent: 100, next: null });
  });

  it("counts a blank about text and a blank city as missing", () => {
    expect(profileCompleteness({ ...bare, about: "   ", city: " " }).percent).toBe(0);
  });
});
