# Homebrew formula for the released bpvm binaries. A template: the release
# workflow fills in the version and each archive's SHA-256
# (packaging/homebrew/fill.sh) and attaches the result to the release as
# bpvm.rb, ready to commit to a tap (Formula/bpvm.rb).
class Bpvm < Formula
  desc "Render, test and check Windsor facets and Bluelink blueprints"
  homepage "https://github.com/bpvm/bpvm"
  version "@VERSION@"
  license "Apache-2.0"

  on_macos do
    on_arm do
      url "https://github.com/bpvm/bpvm/releases/download/v@VERSION@/bpvm-aarch64-macos.tar.gz"
      sha256 "@SHA256_AARCH64_MACOS@"
    end
    on_intel do
      url "https://github.com/bpvm/bpvm/releases/download/v@VERSION@/bpvm-x86_64-macos.tar.gz"
      sha256 "@SHA256_X86_64_MACOS@"
    end
  end

  on_linux do
    on_arm do
      url "https://github.com/bpvm/bpvm/releases/download/v@VERSION@/bpvm-aarch64-linux.tar.gz"
      sha256 "@SHA256_AARCH64_LINUX@"
    end
    on_intel do
      url "https://github.com/bpvm/bpvm/releases/download/v@VERSION@/bpvm-x86_64-linux.tar.gz"
      sha256 "@SHA256_X86_64_LINUX@"
    end
  end

  def install
    bin.install "bpvm"
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/bpvm --version")
  end
end
