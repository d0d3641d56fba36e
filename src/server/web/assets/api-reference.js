// Starts Swagger UI on the API reference page (/docs/api), from the OpenAPI document this
// service serves. Loaded after swagger-ui-bundle.js (both deferred, so in order, once the page
// is parsed). Nothing leaves the service: no validator badge, no remote fonts or specs.
"use strict";
(function () {
  var root = document.getElementById("api-reference");
  if (!root || typeof SwaggerUIBundle !== "function") return;
  root.textContent = "";
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-openapi-url"),
    domNode: root,
    deepLinking: true,
    displayOperationId: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    validatorUrl: null,
  });
})();
