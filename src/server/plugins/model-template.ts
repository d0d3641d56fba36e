// GET /templates/underwriting-model.xlsx?property_id=cp_…: the starter model of a property as
// an Excel file (model-workbook.ts), outside the metered /v1 API. It holds formulas,
// not data, so it needs no key and costs nothing: the file's PROP formulas fetch (and are
// charged) when they calculate in Excel with the add-in loaded. A malformed id is a 400 problem.
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { FastifyPluginCallback } from "fastify";
import { MODEL_XLSX_PATH, modelTemplate } from "../../contract/model-template";
import { Id } from "../../contract/schema-helpers";
import { modelWorkbook } from "./model-workbook";

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const ModelQuery = Type.Object(
  { property_id: Id("cp", "The subject property: the model's input cell holds it, and every formula refers to it.") },
  { additionalProperties: false },
);

export const modelTemplateRoute: FastifyPluginCallback = (app, _opts, done) => {
  app.withTypeProvider<TypeBoxTypeProvider>().get(MODEL_XLSX_PATH, { schema: { querystring: ModelQuery } }, async (req, reply) => {
    const id = req.query.property_id;
    const file = await modelWorkbook(modelTemplate({ propertyId: id }));
    return reply
      .type(XLSX_TYPE)
      .header("Content-Disposition", `attachment; filename="underwriting-model-${id}.xlsx"`)
      .header("Cache-Control", "public, max-age=3600")
      .send(file);
  });
  done();
};
