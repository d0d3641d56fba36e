// The vocabulary's hints for spellings that name a subtype rather than an asset type.
import { assetTypeHint } from "../../src/contract/vocabulary";

test("a subtype's spelling gets a hint naming its asset type and subtype", () => {
  expect(assetTypeHint("Self Storage")).toMatch(/self-storage subtype of specialty/);
});

test("a word that names an object's own property (constructor, toString) gets no hint", () => {
  expect(assetTypeHint("constructor")).toBeNull();
  expect(assetTypeHint("toString")).toBeNull();
  expect(assetTypeHint("__proto__")).toBeNull();
});
