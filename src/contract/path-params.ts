// The path parameters of the operations that take one: an asset type, a company type, a property id.
import { Type } from "@sinclair/typebox";
import { ASSET_TYPES, COMPANY_TYPES } from "./vocabulary";

export const AssetTypePath = Type.Object({
  asset_type: Type.String({ description: `One of: ${ASSET_TYPES.join(", ")}.`, maxLength: 64 }),
});

export const CompanyTypePath = Type.Object({
  company_type: Type.String({ maxLength: 64, description: `One of: ${COMPANY_TYPES.join(", ")}.` }),
});

/** The path of an operation about one property. */
export const PropertyIdPath = Type.Object({ property_id: Type.String({ maxLength: 64, description: "Property id, e.g. cp_00012ab3." }) });
