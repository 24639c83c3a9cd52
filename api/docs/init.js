// Swagger UI over the API's own OpenAPI document. BaseLayout without the standalone preset: no top bar
// (its URL box could point the page at other hosts). validatorUrl null: no badge image from
// validator.swagger.io. Nothing here may leave this origin; the page's CSP would refuse it anyway.
window.ui = window.SwaggerUIBundle({
  url: "/api/v1/openapi.json",
  dom_id: "#swagger-ui",
  presets: [window.SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  validatorUrl: null,
  deepLinking: true,
});
