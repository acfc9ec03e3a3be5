local hlp = std.extVar("helpers");
local ctx = std.extVar("context");
{
  endpoint: "https://" + hlp.getString(ctx, "cluster.name", "cluster") + "." + hlp.getString(ctx, "dns.domain", "local") + ":6443",
  workers: hlp.getInt(ctx, "cluster.workers.count", 1),
}
